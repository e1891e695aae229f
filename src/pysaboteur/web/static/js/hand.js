/* My hand, the moves not made on the board (pass, discard, end, orient, votes ...), and the
 * small choices a move may need (which side, which tool, which route). */
import {S, $, $$, esc, render} from "./store.js";
import {t, tr, cardName, seatLabel} from "./i18n.js";
import {send, feedback} from "./net.js";
import {cursorToFirstTarget, lightRoute, wayClass} from "./board.js";
import {cardTitle} from "./help.js";
import {hintTools, bindHint} from "./hint.js";

export const CW = 100, CH = 150;

export function cardSvg(game, code, rotated, cls = "card") {
  const c = S.cards[game] && S.cards[game].cards[code];
  const inner = c ? (rotated && c.svg_r ? c.svg_r : c.svg) : S.cards[game].back;
  return `<svg class="${cls}" viewBox="0 0 ${CW} ${CH}" role="img" aria-label="${esc(cardName(game, code))}"><title>${esc(cardTitle(game, code))}</title>${inner}</svg>`;
}

export function actionLabel(a, game) {
  switch (a.kind) {
    case "EndTurn": return t("end_turn");
    case "Orient": return a.rotated ? t("orient_turned") : t("orient_as_is");
    case "Steal": return t("steal_from", {name: seatLabel(a.target)});
    case "NoMove": return t("stay");
    case "Take": return t("take", {n: a.slot + 1});
    case "ProposeEnd": return t("propose_end");
    case "Vote": return a.accept ? t("accept") : t("decline");
    case "Move": return t("move_to", {route: a.route.map((c) => c.join(",")).join(" → ")});
    case "Pass": return t("pass_cards", {cards: a.cards.map((c) => cardName(game, c)).join(", ")});
    case "Discard": return t("discard_remove", {card: cardName(game, a.remove)});
    case "PlayOnPlayer": return a.tool ? t("repair_tool", {name: seatLabel(a.target), tool: tr("tools", a.tool)}) : `${cardName(game, a.card)} → ${seatLabel(a.target)}`;
    case "PlayOnJoint": return `${cardName(game, a.card)} @ ${a.x},${a.y} ${tr("sides", a.side, a.side)}`;
    case "PlayOnTreasure": return t("on_treasure", {card: cardName(game, a.card), n: a.slot + 1});
    default: return a.text;
  }
}

/** Moves made by clicking the board or a player; every other kind gets a button. */
const CLICKED_KINDS = new Set(["PlacePath", "PlayOnCell", "PlayOnPlayer", "Pass", "Discard", "Bribe", "PlayOnJoint", "Move", "PlayOnTreasure"]);

/** Pick (or put back) a card of the hand; ``byKeyboard`` puts the board's cursor on its first cell. */
export function pickCard(i, byKeyboard = false) {
  const msg = S.msg;
  if (!msg || !msg.view.hand || i < 0 || i >= msg.view.hand.length) return;
  const code = msg.view.hand[i];
  if (S.passMode) { S.passSel = S.passSel.includes(i) ? S.passSel.filter((x) => x !== i) : [...S.passSel, i]; }
  else if (S.selected === code) { S.selected = null; }
  else {
    S.selected = code; S.rotated = false; S.choice = null;
    if (!msg.legal.length) feedback(msg.table.status === "playing" ? t("not_your_turn") : t("no_moves"));
    else if (!msg.legal.some((a) => a.card === code)) feedback(t("card_not_playable"), "info");
    else if (byKeyboard) cursorToFirstTarget();
  }
  render();
}
export function rotate() {
  const game = S.msg && S.msg.table.game;
  if (S.selected && S.cards[game].cards[S.selected] && S.cards[game].cards[S.selected].svg_r) { S.rotated = !S.rotated; render(); }
}
export function passMode(on) { S.passMode = on; S.selected = null; S.passSel = []; render(); }

export function renderHand(ctx) {
  const {msg, view, game} = ctx;
  const hand = view.hand ? view.hand.map((c, i) => {
    const cls = ["hand-card"];
    if (S.selected === c && !S.passMode) cls.push("selected");
    if (S.passMode && S.passSel.includes(i)) cls.push("selected");
    if (msg.legal.some((a) => a.card === c)) cls.push("playable");
    const name = cardName(game, c);
    return `<button class="${cls.join(" ")}" data-hand="${i}" data-code="${esc(c)}" data-testid="hand-${i}" title="${esc(cardTitle(game, c))}" aria-pressed="${cls.includes("selected")}" aria-label="${esc(`${i + 1}: ${name}`)}">${cardSvg(game, c, S.selected === c && S.rotated && !S.passMode)}<span class="cname">${esc(name)}</span></button>`;
  }).join("") : `<p>${t("spectating")}</p>`;
  $("#hand").innerHTML = hand;

  const extra = msg.legal.filter((a) => !CLICKED_KINDS.has(a.kind) && a.kind !== "Orient");
  const passable = msg.legal.some((a) => a.kind === "Pass" || a.kind === "Discard");
  const selectedTile = S.selected && S.cards[game].cards[S.selected] && S.cards[game].cards[S.selected].svg_r;
  // moves of the picked card that are not on the board (players, treasures): buttons too,
  // so that they can be made by keyboard and on a small screen
  const aimed = S.selected ? msg.legal.filter((a) => (a.kind === "PlayOnTreasure" || a.kind === "PlayOnPlayer") && a.card === S.selected) : [];
  $("#tools").innerHTML = `
      ${selectedTile ? `<button id="rotate" data-testid="rotate" aria-keyshortcuts="R">⟲ ${t("rotate")}</button>` : ""}
      ${passable && !S.passMode ? `<button id="pass-mode" data-testid="pass-mode" aria-keyshortcuts="P">${t("pass_or_discard")}</button>` : ""}
      ${aimed.map((a) => `<button data-act="${esc(a.text)}" data-testid="act-${a.kind}">${esc(actionLabel(a, game))}</button>`).join("")}
      ${extra.map((a) => `<button data-act="${esc(a.text)}" data-testid="act-${esc(a.kind)}">${esc(actionLabel(a, game))}</button>`).join("")}
      ${hintTools(ctx)}`;

  let prompt = "";
  if (S.passMode) {
    const codes = S.passSel.map((i) => view.hand[i]).sort();
    const passText = `pass ${codes.join(" ")}`;
    const pass = msg.legal.find((a) => a.kind === "Pass" && a.text === passText);
    const discards = msg.legal.filter((a) => a.kind === "Discard" && a.cards.join(" ") === codes.join(" "));
    prompt += `<div class="passbar">${t("select_to_pass")}
      <button data-testid="confirm-pass" ${pass ? `data-act="${esc(pass.text)}"` : "disabled"}>${t("pass_selected")}</button>
      ${discards.map((a) => `<button data-act="${esc(a.text)}">${esc(actionLabel(a, game))}</button>`).join("")}
      <button data-testid="cancel-pass" id="cancel-pass">${t("cancel")}</button></div>`;
  }
  if (S.choice) prompt += `<div class="choice" role="group" data-testid="choice"><b>${esc(S.choice.title)}</b> ${S.choice.actions.map((a, i) => `<button data-act="${esc(a.text)}"${a.kind === "Move" ? ` data-route="${i}"` : ""}>${a.kind === "Move" ? `<span class="way-swatch ${wayClass(i)}" aria-hidden="true"></span>` : ""}${esc(actionLabel(a, game))}</button>`).join("")} <button data-testid="cancel-choice" id="cancel-choice">${t("cancel")}</button></div>`;
  const orients = msg.legal.filter((a) => a.kind === "Orient");
  const pend = view.pending_goal || (view.pending && view.pending.length >= 3 && typeof view.pending[2] === "string" ? view.pending : null);
  if (orients.length && pend) prompt += `<div class="choice" role="group"><b>${t("choose_orientation")}</b> ${orients.map((a) => `<button class="orient" data-act="${esc(a.text)}" data-testid="orient-${a.rotated ? "r" : "n"}" aria-label="${esc(actionLabel(a, game))}">${cardSvg(game, pend[2], a.rotated, "orient-card")}</button>`).join("")}</div>`;
  $("#prompt").innerHTML = prompt;

  for (const el of $$("[data-hand]")) el.onclick = () => pickCard(Number(el.dataset.hand));
  for (const el of $$("#tools [data-act], #prompt [data-act]")) el.onclick = () => { S.choice = null; S.passMode = false; send(el.dataset.act); };
  const on = (id, fn) => { const el = $(id); if (el) el.onclick = fn; };
  on("#rotate", rotate);
  on("#pass-mode", () => passMode(true));
  on("#cancel-pass", () => passMode(false));
  on("#cancel-choice", () => { S.choice = null; render(); });
  // a way offered by "Which way?" is lit on the board while its button is pointed at or focused
  for (const el of $$("#prompt [data-route]")) {
    el.onmouseenter = el.onfocus = () => lightRoute(Number(el.dataset.route));
    el.onmouseleave = el.onblur = () => lightRoute(null);
  }
  bindHint(ctx);
}
