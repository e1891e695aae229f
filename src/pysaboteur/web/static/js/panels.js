/* The status line and the player panels: seat colour and letter, name, whether the seat is
 * here, cards in front (large enough to read, named on hover and on a tap), gold and
 * points as the rules make them public, my role (only on my own panel), what I have
 * seen (goals, mines, dwarves), the Duel's shared marker pool, and whose turn it is with a
 * running clock (counted here, from when the state message that began the turn arrived). */
import {S, $, $$, esc, render, legalFor} from "./store.js";
import {t, tr, tg, cardName, seatLabel} from "./i18n.js";
import {send, feedback} from "./net.js";
import {seatChip} from "./seats.js";
import {cardSvg} from "./hand.js";
import {cardTitle} from "./help.js";

/** A panel string in the page's language (group "panels", i18n/<lang>.panels.json). */
const P = (key, vars = {}) => tg("panels", key, vars);

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

// -- the turn clock ------------------------------------------------------------------------
const T = {key: null, since: Date.now(), logLen: -1, timer: null};
const TURN_START_PHASES = new Set(["main", "card"]);

/** Restart the clock when another seat's turn begins (or the same seat's next turn). */
function trackTurn(ctx) {
  const {view, table} = ctx;
  const key = `${table.id}/${view.round}/${view.current_player}`;
  const grew = view.log.length > T.logLen && T.logLen >= 0;
  if (key !== T.key || (grew && TURN_START_PHASES.has(view.phase || "main") && lastActor(view) === view.current_player)) {
    T.since = Date.now();
  }
  T.key = key; T.logLen = view.log.length;
  if (!T.timer) T.timer = setInterval(tick, 1000);
}
/** The seat that made the last move (a seat's own next turn starts when it is to move again). */
function lastActor(view) {
  const last = view.log[view.log.length - 1];
  return last ? last[0] : null;
}
function clock() {
  const s = Math.max(0, Math.floor((Date.now() - T.since) / 1000));
  return s >= 3600 ? `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`
    : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
function tick() { for (const el of $$(".turn-timer")) el.textContent = clock(); }
const timerHtml = () => `<span class="turn-timer" data-testid="turn-timer" title="${esc(P("turn_time"))}">${clock()}</span>`;

// -- what the rules make public ----------------------------------------------------------------
/** The Duel's markers: one shared pool [rule], unless each colour has its own (option). */
function sharedMarkers(view) {
  return view.markers_left && !(view.options && view.options.markers_per_player) ? view.markers_left[0] : null;
}

function identityName(game, view) {
  if (!view.identity) return "";
  const clan = view.clans && view.seat !== null && view.clans[view.seat];
  const code = clan ? `${clan}-${view.identity}` : view.identity;
  const named = S.tr.cards && S.tr.cards[code];
  return named || tr("panels", `identity_${view.identity}`, view.identity);
}

/** A seat's gold or points as far as this seat may know them, as HTML (or ""). */
function goldOf(ctx, s) {
  const {view, game} = ctx;
  const cell = (label, value, extra = "") => `<span class="score" data-testid="score-${s}"${extra}>${esc(label)} ${esc(value)}</span>`;
  if (view.final_scores) return cell(t("gold"), view.final_scores[s]);
  if (game === "classic") return cell(t("gold"), s === view.seat && typeof view.gold === "number" ? view.gold : "?", ` title="${esc(P("gold_secret"))}"`);
  if (game === "expansion") {
    if (s === view.seat && typeof view.gold === "number") return cell(t("gold"), view.gold);
    const has = view.has_gold && view.has_gold[s];
    return `<span class="score" data-testid="score-${s}" title="${esc(P("gold_amount_secret"))}">${esc(has ? P("has_gold") : P("no_gold"))}</span>`;
  }
  if (game === "lost-mines") return view.scores ? cell(P("points"), view.scores[s]) : "";
  if (view.scores) return cell(t("gold"), view.scores[s]);
  return "";
}

function presence(seat, table, s) {
  if (seat.kind === "bot") return "";
  if (seat.kind === "open" || seat.claimed === false) return `<small class="off notyet" data-testid="not-joined-${s}">${esc(P("not_joined"))}</small>`;
  if (seat.connected) return "";
  if (table.status === "open") return `<small class="off notyet" data-testid="not-joined-${s}">${esc(P("not_joined"))}</small>`;
  return `<small class="off">${t("offline")}</small>`;
}

function frontCards(game, codes) {
  return (codes || []).map((c) => {
    const name = cardName(game, c);
    return `<button type="button" class="mini" data-front-name="${esc(name)}" title="${esc(cardTitle(game, c))}" aria-label="${esc(name)}">${cardSvg(game, c, false, "mini-card")}</button>`;
  }).join("");
}

/** What I have seen that is still hidden from the others, by seat (dwarves) and for me (goals, mines). */
function seenBySeat(view, game) {
  const out = new Map();
  const add = (s, text) => { if (!out.has(s)) out.set(s, []); out.get(s).push(text); };
  for (const [s, code] of view.known_dwarves || []) add(s, cardName(game, code));
  for (const [s, code] of view.inspected || []) add(s, cardName(game, code));
  return out;
}
const MAP_ICON = `<svg class="map-mark" viewBox="0 0 20 16" width="18" height="14" aria-hidden="true"><path d="M1 3l6-2 6 2 6-2v12l-6 2-6-2-6 2z" fill="#e9d7a8" stroke="#6b4e1f" stroke-width="1.2"/><path d="M7 1v12M13 3v12" stroke="#6b4e1f" stroke-width="1"/><path d="M9 9l2 2m0-2l-2 2" stroke="#c0392b" stroke-width="1.6"/></svg>`;
function seenGoals(view, game) {
  const goals = [...(view.known_goals || []), ...(view.known_mines || [])];
  const items = goals.map(([x, y, code]) => `<li data-testid="seen-goal-${x}_${y}">${MAP_ICON} ${esc(cardName(game, code))} <small>(${x},${y})</small></li>`);
  for (const [slot, code] of view.known_treasures || []) items.push(`<li>${MAP_ICON} ${esc(P("treasure_slot", {n: slot + 1}))}: ${esc(treasureName(code))}</li>`);
  if (view.own_treasures && view.own_treasures.length) items.push(`<li>${esc(P("my_treasures"))}: ${view.own_treasures.map((c) => esc(treasureName(c))).join(", ")}</li>`);
  return items.length ? `<div class="seen-box"><b>${esc(P("you_saw"))}</b><ul class="seen-list" data-testid="seen-goals">${items.join("")}</ul></div>` : "";
}
function treasureName(code) {
  const m = /^(\w+)-(\d+)$/.exec(code || "");
  return m ? `${tr("mines", m[1], m[1])} ${m[2]}` : tr("mines", code, code);
}

// -- the status line ---------------------------------------------------------------------------
export function renderStatus(ctx) {
  const {view, table, game, myTurn} = ctx;
  trackTurn(ctx);
  const playing = table.status === "playing" && view.current_player >= 0;
  const status = table.status === "open" ? (localStorage.getItem(`host:${table.id}`) ? t("host_start") : t("waiting_start"))
    : table.status === "finished" ? t("match_over")
    : myTurn ? t("your_turn") : t("turn_of", {name: seatLabel(view.current_player)});
  const info = [`${t("round")} ${view.round}/${view.rounds}`, `${t("deck")} ${view.deck_size}`];
  if (view.phase && view.phase !== "main") info.push(tr("phases", view.phase, view.phase));
  const pool = sharedMarkers(view);
  if (pool !== null) info.push(P("markers_pool", {n: pool}));
  if (view.keys_left !== undefined) info.push(`${t("keys")} ${view.keys_left}`);
  if (view.role) info.push(`${t("your_role")}: ${cardName(game, view.role)}`);
  if (view.identity) info.push(`${t("your_role")}: ${identityName(game, view)}`);
  if (typeof view.gold === "number") info.push(`${t("your_gold")}: ${view.gold}`);
  // every seat sees whether "Suggest a move" is open at this table
  if (table.hints !== false && table.status === "playing") info.push(t("hints_allowed"));
  $("#status").className = `status ${myTurn ? "mine" : ""}`;
  $("#status").innerHTML = `${esc(status)}${playing ? ` ${timerHtml()}` : ""} <small>${esc(info.join(" · "))}</small>`;
}

// -- the player panels -----------------------------------------------------------------------
export function renderPlayers(ctx) {
  const {view, table, game, me} = ctx;
  const targets = ctx.myTurn ? seatTargets() : new Set();
  const playing = table.status === "playing";
  const seen = seenBySeat(view, game);
  const perSeatMarkers = view.markers_left && sharedMarkers(view) === null;
  $("#players").innerHTML = Array.from({length: view.players}, (_, s) => {
    const seat = table.seats[s] || {kind: "human"};
    const active = playing && s === view.current_player;
    const stats = [`<span>${t("cards")} ${view.hand_sizes[s]}</span>`, goldOf(ctx, s)];
    if (perSeatMarkers) stats.push(`<span>${t("markers")} ${view.markers_left[s]}</span>`);
    if (view.clans) stats.push(`<span class="clan clan-${esc(view.clans[s])}">${esc(P("clan", {clan: tr("colours", view.clans[s], view.clans[s])}))}</span>`);
    if (view.collected && view.collected[s] && view.collected[s].length) stats.push(`<span class="treasures">${esc(P("treasures"))}: ${view.collected[s].map((k) => esc(tr("mines", k, k))).join(", ")}</span>`);
    if (view.dragon === s) stats.push(`<span class="dragon">${esc(P("dragon"))}</span>`);
    const mine = s === me ? [view.role ? cardName(game, view.role) : "", view.identity ? identityName(game, view) : ""].filter(Boolean) : [];
    const role = mine.length ? `<div class="my-role" data-testid="my-role">${esc(t("your_role"))}: <b>${esc(mine.join(", "))}</b></div>` : "";
    const saw = seen.has(s) ? `<div class="seen-role">${esc(P("seen_as", {what: seen.get(s).join(", ")}))}</div>` : "";
    const turn = active ? `<div class="turn-line">▶ ${esc(s === me ? t("your_turn") : P("playing"))} ${timerHtml()}</div>` : "";
    // a seat the picked card can aim at is a button: reachable by Tab, played by Enter or Space
    const aim = targets.has(s) ? ` tabindex="0" role="button" aria-label="${esc(t("aim_at", {name: seatLabel(s)}))}"` : "";
    return `<div class="player ${active ? "active" : ""} ${targets.has(s) ? "targetable" : ""} ${s === me ? "me" : ""}" data-seat="${s}" data-testid="player-${s}"${aim}>
      <div class="pname">${seatChip(view, s)}${esc(seatLabel(s))} ${seat.kind === "bot" ? `<small>(${t(seat.difficulty || "easy")})</small>` : ""} ${presence(seat, table, s)}</div>
      ${turn}${role}
      <div class="pstats">${stats.filter(Boolean).join("")}</div>${saw}
      <div class="front">${frontCards(game, view.in_front[s])}</div>
      ${s === me ? seenGoals(view, game) : ""}</div>`;
  }).join("");
  for (const el of $$("[data-seat]")) {
    el.onclick = () => actOnSeat(Number(el.dataset.seat));
    if (el.classList.contains("targetable")) {
      el.onkeydown = (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ev.stopPropagation(); actOnSeat(Number(el.dataset.seat)); }
      };
    }
  }
  for (const el of $$("[data-front-name]")) {
    el.onclick = (ev) => {
      const panel = el.closest("[data-seat]");
      if (panel && panel.classList.contains("targetable")) return;  // a tap aims at the seat
      ev.stopPropagation();
      feedback(el.dataset.frontName, "info");
    };
  }
}
