/* The status line and the player panels: seat colour and letter, name, cards in front,
 * gold as the rules make it public, whose turn it is. */
import {S, $, $$, esc, render, legalFor} from "./store.js";
import {t, tr, cardName, seatLabel} from "./i18n.js";
import {send} from "./net.js";
import {seatChip} from "./seats.js";
import {cardSvg} from "./hand.js";

function seatTargets() {
  const sel = S.selected;
  const out = new Set();
  for (const a of S.msg.legal) if (sel && a.card === sel && a.kind === "PlayOnPlayer") out.add(a.target);
  for (const a of S.msg.legal) if (!sel && a.kind === "Steal") out.add(a.target);
  return out;
}

export function actOnSeat(seat) {
  if (!S.msg || !S.msg.legal.length) return;
  const sel = S.selected;
  const acts = sel ? legalFor((a) => a.kind === "PlayOnPlayer" && a.card === sel && a.target === seat)
    : legalFor((a) => a.kind === "Steal" && a.target === seat);
  if (acts.length === 1) send(acts[0].text);
  else if (acts.length > 1) { S.choice = {title: t("choose_tool"), actions: acts}; render(); }
  else if (sel) send(`${sel}>${seat}`);
}

export function renderStatus(ctx) {
  const {view, table, game, myTurn} = ctx;
  const status = table.status === "open" ? (localStorage.getItem(`host:${table.id}`) ? t("host_start") : t("waiting_start"))
    : table.status === "finished" ? t("match_over")
    : myTurn ? t("your_turn") : t("turn_of", {name: seatLabel(view.current_player)});
  const info = [`${t("round")} ${view.round}/${view.rounds}`, `${t("deck")} ${view.deck_size}`];
  if (view.phase && view.phase !== "main") info.push(tr("phases", view.phase, view.phase));
  if (view.keys_left !== undefined) info.push(`${t("keys")} ${view.keys_left}`);
  if (view.role) info.push(`${t("your_role")}: ${cardName(game, view.role)}`);
  if (view.identity) info.push(`${t("your_role")}: ${cardName(game, view.identity)}`);
  if (view.gold !== undefined && typeof view.gold === "number") info.push(`${t("your_gold")}: ${view.gold}`);
  $("#status").className = `status ${myTurn ? "mine" : ""}`;
  $("#status").innerHTML = `${esc(status)} <small>${esc(info.join(" · "))}</small>`;
}

export function renderPlayers(ctx) {
  const {view, table, game, me} = ctx;
  const targets = ctx.myTurn ? seatTargets() : new Set();
  const scores = view.final_scores || view.scores;
  $("#players").innerHTML = Array.from({length: view.players}, (_, s) => {
    const seat = table.seats[s];
    const front = (view.in_front[s] || []).map((c) => `<span class="mini" title="${esc(cardName(game, c))}">${cardSvg(game, c, false, "mini-card")}</span>`).join("");
    const gold = scores ? `<span class="score" data-testid="score-${s}">${t("gold")} ${scores[s] === null ? "?" : scores[s]}</span>` : "";
    const markers = view.markers_left ? `<span>${t("markers")} ${view.markers_left[s]}</span>` : "";
    return `<div class="player ${s === view.current_player ? "active" : ""} ${targets.has(s) ? "targetable" : ""} ${s === me ? "me" : ""}" data-seat="${s}" data-testid="player-${s}">
      <div class="pname">${seatChip(view, s)}${esc(seatLabel(s))} ${seat.kind === "bot" ? `<small>(${t(seat.difficulty || "easy")})</small>` : ""} ${seat.connected || seat.kind === "bot" ? "" : `<small class="off">${t("offline")}</small>`}</div>
      <div class="pstats"><span>${t("cards")} ${view.hand_sizes[s]}</span>${gold}${markers}</div>
      <div class="front">${front}</div></div>`;
  }).join("");
  for (const el of $$("[data-seat]")) el.onclick = () => actOnSeat(Number(el.dataset.seat));
}
