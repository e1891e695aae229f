/* The results table, the round-end panel and the match-end panel.
 *
 * Everything here is read from this seat's view alone (view.results, view.last_round,
 * view.final_scores / scores), so nothing is shown that the rules keep secret: in
 * Saboteur the other seats' gold is null ("?") until the match is over.
 *
 * A round's panel shows the board as the round ended (last_round, drawn by the board
 * module), why it ended, who won and why, what the rules turn over (roles, identities,
 * treasures, the dragon) and what each seat receives; "Next round" closes it.  Which
 * rounds this browser has seen is kept per table in localStorage, so a reload right after
 * a round's end shows its panel again.  The match panel ranks the seats, offers a
 * rematch and the match record, and can be closed (the board stays) and reopened.
 */
import {S, $, esc, render} from "./store.js";
import {t, tr, tg, cardName, seatLabel} from "./i18n.js";
import {api, feedback, errorText} from "./net.js";
import {worldSvg, CW, CH} from "./board.js";
import {seatChip} from "./seats.js";
import {cardSvg} from "./hand.js";

/** A round-end string in the page's language (group "roundend", i18n/<lang>.roundend.json). */
const R = (key, vars = {}) => tg("roundend", key, vars);

const E = {table: null, ack: 0, open: null, matchClosed: false, focused: null};
export function resetRoundEnd() { Object.assign(E, {table: null, ack: 0, open: null, matchClosed: false, focused: null}); }

const ackKey = (id) => `roundend:${id}`;
const gold = (g) => (g === null || g === undefined ? "?" : g);
const names = (seats) => seats.map((s) => seatLabel(s)).join(", ");

/** The match's scores as far as this seat may know them (null: unknown). */
function scoresOf(view, game) {
  if (view.final_scores) return view.final_scores;
  if (view.scores) return view.scores;
  if (game === "classic" || game === "expansion") {
    return Array.from({length: view.players}, (_, s) => (s === view.seat && typeof view.gold === "number" ? view.gold : null));
  }
  return null;
}

// -- the small results table in the side panel ----------------------------------------------
export function resultsTable(view) {
  const results = view.results || [];
  if (!results.length) return "";
  const scores = view.final_scores || view.scores;
  const rows = results.map((r) => `<tr><td>${r.round}</td>${(r.gold || []).map((g) => `<td>${gold(g)}</td>`).join("")}</tr>`).join("");
  return `<table class="results" data-testid="results"><tr><th>${t("round")}</th>${Array.from({length: view.players}, (_, s) => `<th>${esc(seatLabel(s))}</th>`).join("")}</tr>${rows}
    ${scores ? `<tr class="total"><td>${t("total")}</td>${scores.map((g) => `<td>${gold(g)}</td>`).join("")}</tr>` : ""}</table>`;
}

export function renderResults(ctx) {
  const {view, table} = ctx;
  const results = view.results || [];
  const again = results.length && !E.open
    ? `<button class="small" id="reopen-results" data-testid="reopen-results">${esc(R(table.status === "finished" ? "show_match" : "show_round"))}</button>` : "";
  $("#results").innerHTML = (resultsTable(view) || t("no_results")) + again;
  const b = $("#reopen-results");
  if (b) b.onclick = () => { if (table.status === "finished") E.matchClosed = false; else E.ack = results.length - 1; render(); };
}

// -- what a round's end turns over ----------------------------------------------------------
const roleName = (game, code) => (code ? cardName(game, code) : "");
function treasureName(code) {
  const m = /^(\w+)-(\d+)$/.exec(code || "");
  return m ? R("treasure", {kind: tr("mines", m[1], m[1]), n: m[2]}) : code;
}
function miniCards(game, codes) {
  return (codes || []).map((c) => `<span class="re-mini" title="${esc(cardName(game, c))}">${cardSvg(game, c, false, "re-mini-card")}</span>`).join("");
}

function reasonText(game, view, r, reason, last) {
  if (reason === "gold") {
    const key = game === "expansion" ? "reason_gold_connected" : "reason_gold";
    const cards = S.cards[game] && S.cards[game].cards;
    const goal = last && cards ? last.board.find((p) => p.card.startsWith("goal-gold")) : null;
    const where = goal ? R(goal.y < 0 ? "goal_top" : goal.y > 0 ? "goal_bottom" : "goal_middle") : R("goal_some");
    return r && r.finder >= 0 ? R(key, {name: seatLabel(r.finder), where}) : R("reason_gold_reached", {where});
  }
  if (reason === "exhausted") return R(game === "lost-mines" ? "reason_exhausted_lm" : (game === "duel" || game === "solo") ? "reason_exhausted_duel" : "reason_exhausted");
  if (reason === "markers") {
    const n = view.options && view.options.markers_per_player ? view.options.markers_per_player * view.players : (game === "solo" ? 6 : 8);
    return R("reason_markers", {n});
  }
  if (reason === "goals") return R("reason_goals");
  if (reason === "treasures") return R("reason_treasures");
  if (reason === "vote") return R("reason_vote");
  return reason || "";
}

/** Sentences: who wins and why (per game), from the round's result. */
function verdict(game, view, r, last) {
  const out = [];
  const win = r.winners || [];
  if (game === "classic") {
    if (r.side === "gold-diggers") out.push(R("diggers_win", {names: names(win) || "—"}));
    else if (r.side === "saboteurs") out.push(R("saboteurs_win", {names: names(win) || "—"}));
    else out.push(R("nobody_no_saboteur"));
    if (view.options && view.options.sabotaged_diggers_get_nothing && r.side === "gold-diggers") out.push(R("sabotaged_nothing"));
  } else if (game === "expansion") {
    const side = r.side || "nobody";
    if (side === "saboteurs") out.push(R("saboteurs_win", {names: names(win) || R("none_paid")}));
    else if (side === "nobody") out.push(r.finder >= 0 ? R("nobody_doors") : R("nobody_no_saboteur"));
    else {
      const teams = side.split("+");
      const key = teams.length > 1 ? "teams_both_win" : `team_${teams[0]}_wins`;
      out.push(R(key, {names: names(win) || R("none_paid")}));
    }
    if (r.routes) {
      out.push(R("routes", {blue: R(r.routes.blue ? "yes" : "no"), green: R(r.routes.green ? "yes" : "no")}));
    }
    const trapped = (last && last.extra && last.extra.trapped) || [];
    if (trapped.length) out.push(R("trapped", {names: names(trapped)}));
    if (r.roles && r.roles.includes("geologist")) out.push(R("crystals", {n: r.crystals || 0}));
    for (const [thief, victim] of r.thefts || []) out.push(R("theft", {thief: seatLabel(thief), victim: seatLabel(victim)}));
  } else if (game === "duel" || game === "solo") {
    r.gold.forEach((g, s) => {
      out.push(R(r.bribes[s] ? "duel_takes_bribes" : "duel_takes", {name: seatLabel(s), gold: g, bribes: r.bribes[s], paid: r.paid[s]}));
    });
  } else if (game === "lost-mines") {
    const dw = r.dwarves || [];
    const value = (codes) => codes.reduce((a, c) => a + Number((/-(\d+)$/.exec(c) || [0, 0])[1]), 0);
    for (const clan of ["blue", "yellow"]) {
      const members = dw.map((d, s) => [d, s]).filter(([d]) => {
        const [c, id] = d.split("-");
        return (id === "loyal" && c === clan) || (id === "saboteur" && c !== clan);
      }).map(([, s]) => s);
      if (members.length) out.push(R("clan_total", {clan: tr("colours", clan, clan), n: members.reduce((a, s) => a + value(r.treasures[s] || []), 0), names: names(members)}));
    }
    dw.forEach((d, s) => { if (d.endsWith("-selfish")) out.push(R("selfish_keeps", {name: seatLabel(s), n: value(r.treasures[s] || [])})); });
    if (r.dragon !== null && r.dragon !== undefined) out.push(R("dragon", {name: seatLabel(r.dragon)}));
    out.push(win.length ? R("most_points", {names: names(win)}) : R("nobody_scored"));
  }
  return out;
}

/** The board as the round ended, fitted to its own bounds. */
function endBoard(view, game, last) {
  if (!last || !S.cards[game]) return "";
  const world = worldSvg(view, game, {last});
  const [x0, y0, x1, y1] = world.bounds;
  const w = (x1 - x0 + 1) * CW, h = (y1 - y0 + 1) * CH;
  return `<svg class="re-board" data-testid="end-board" viewBox="${x0 * CW} ${y0 * CH} ${w} ${h}" role="img" aria-label="${esc(R("board_at_end"))}" style="aspect-ratio:${w}/${h}">${world.svg}</svg>`;
}

/** One row per seat: revealed role, cards in front at the end, this round, the total. */
function seatTable(game, view, r, last, final) {
  const scores = scoresOf(view, game);
  const front = (last && last.round === r.round && last.extra && last.extra.in_front) || [];
  const trapped = new Set((last && last.extra && last.extra.trapped) || []);
  const winners = new Set(r.winners || []);
  const duel = game === "duel" || game === "solo";
  const lm = game === "lost-mines";
  const head = [R("col_seat"), duel ? R("col_colour") : R(lm ? "col_dwarf" : "col_role"), ...(lm ? [R("col_treasures")] : []),
    R("col_front"), R(duel ? "col_gold_round" : lm ? "col_points_round" : "col_gold_round"), R("col_total")];
  const rows = Array.from({length: view.players}, (_, s) => {
    let role = "";
    if (duel) role = tr("colours", (view.colours || [])[s], "");
    else if (lm) role = roleName(game, (r.dwarves || [])[s]) + (r.dragon === s ? ` · ${R("dragon_short")}` : "");
    else role = roleName(game, (r.roles || [])[s]);
    const total = duel || lm ? (r.totals || [])[s] : (final && scores ? scores[s] : (s === view.seat && r.round === (view.results || []).length ? scores && scores[s] : null));
    const marks = [winners.has(s) ? `<span class="re-win">${esc(R("winner_mark"))}</span>` : "", trapped.has(s) ? `<span class="re-trap">${esc(R("trapped_mark"))}</span>` : ""].join("");
    const treasures = lm ? `<td>${(r.treasures[s] || []).map(treasureName).map(esc).join(", ") || "—"}</td>` : "";
    return `<tr data-testid="re-seat-${s}" class="${s === view.seat ? "me" : ""}"><td class="re-name">${seatChip(view, s)}${esc(seatLabel(s))} ${marks}</td>
      <td data-testid="re-role-${s}">${esc(role)}</td>${treasures}<td class="re-front">${miniCards(game, front[s])}</td>
      <td data-testid="re-gold-${s}">${gold((r.gold || [])[s])}</td><td data-testid="re-total-${s}">${gold(total)}</td></tr>`;
  }).join("");
  return `<table class="re-seats" data-testid="re-seats"><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr>${rows}</table>`;
}

function roundSection(game, view, r, last, final) {
  const reason = last && last.round === r.round ? last.reason : null;
  const lines = [reason ? reasonText(game, view, r, reason, last) : "", ...verdict(game, view, r, last)].filter(Boolean);
  const spare = game === "classic" && (r.spare_roles || []).length ? `<p class="dim">${esc(R("spare", {roles: r.spare_roles.map((c) => roleName(game, c)).join(", ")}))}</p>` : "";
  const secret = (game === "classic" || game === "expansion") && !final ? `<p class="dim">${esc(R("gold_private"))}</p>` : "";
  const board = last && last.round === r.round ? endBoard(view, game, last) : "";
  return `<div class="re-round">
      <ul class="re-why" data-testid="re-why">${lines.map((l, i) => `<li class="${i === 0 && reason ? "re-reason" : ""}">${esc(l.charAt(0).toUpperCase() + l.slice(1))}</li>`).join("")}</ul>
      <div class="re-body">${board ? `<div class="re-board-box">${board}</div>` : ""}
        <div class="re-facts">${seatTable(game, view, r, last, final)}${spare}${secret}</div></div></div>`;
}

// -- the match's end ----------------------------------------------------------------------
function standings(game, view) {
  const scores = scoresOf(view, game) || [];
  const order = scores.map((g, s) => [g, s]).sort((a, b) => (b[0] ?? -1) - (a[0] ?? -1) || a[1] - b[1]);
  let rank = 0, prev = null;
  const rows = order.map(([g, s], i) => {
    if (g !== prev) { rank = i + 1; prev = g; }
    return `<tr data-testid="standing-${i}" class="${rank === 1 ? "first" : ""} ${s === view.seat ? "me" : ""}"><td class="rank">${rank}.</td><td>${seatChip(view, s)}${esc(seatLabel(s))}</td><td class="num">${gold(g)}</td></tr>`;
  }).join("");
  let rating = "";
  if (game === "solo" && scores.length) {
    const g = scores[0], band = g >= 25 ? 3 : g >= 20 ? 2 : g >= 15 ? 1 : 0;
    rating = `<p class="re-rating" data-testid="solo-rating">${esc(R(`solo_rating_${band}`))}</p>`;
  }
  const best = Math.max(...scores.filter((x) => x !== null));
  const winners = scores.map((g, s) => (g === best ? s : null)).filter((s) => s !== null);
  const line = game === "solo" ? R("solo_total", {n: scores[0]}) : winners.length > 1 ? R("match_tie", {names: names(winners)}) : R("match_winner", {names: names(winners)});
  return `<p class="re-champion">${esc(line)}</p>${rating}<table class="re-standings" data-testid="standings"><tr><th></th><th>${esc(R("col_seat"))}</th><th>${esc(R(game === "lost-mines" ? "col_points" : "col_gold"))}</th></tr>${rows}</table>`;
}

/** Every round's result with the roles it revealed. */
function matchTable(game, view) {
  const results = view.results || [];
  const head = Array.from({length: view.players}, (_, s) => `<th>${seatChip(view, s)}${esc(seatLabel(s))}</th>`).join("");
  const rows = results.map((r) => `<tr><td>${r.round}</td>${Array.from({length: view.players}, (_, s) => {
    const role = game === "lost-mines" ? (r.dwarves || [])[s] : (r.roles || [])[s];
    return `<td>${gold((r.gold || [])[s])}${role ? `<br><small>${esc(roleName(game, role))}</small>` : ""}</td>`;
  }).join("")}</tr>`).join("");
  return `<table class="results re-match" data-testid="results-by-round"><tr><th>${t("round")}</th>${head}</tr>${rows}</table>`;
}

// -- the panel -------------------------------------------------------------------------------
function startedFresh(view, game) {
  const cards = S.cards[game] && S.cards[game].cards;
  return !!cards && view.board.every((p) => cards[p.card] && cards[p.card].category === "start");
}

export function renderRoundEnd(ctx) {
  const {view, table, me, game} = ctx;
  const box = $("#overlay");
  const results = view.results || [];
  if (E.table !== table.id) {
    E.table = table.id; E.matchClosed = false;
    const stored = localStorage.getItem(ackKey(table.id));
    E.ack = stored !== null ? Number(stored) : results.length - (results.length && startedFresh(view, game) ? 1 : 0);
    localStorage.setItem(ackKey(table.id), String(E.ack));  // a reload shows what is not yet seen
  }
  const hostToken = localStorage.getItem(`host:${table.id}`);
  const last = view.last_round;
  let html = "";
  E.open = null;
  if (table.status === "finished" && !E.matchClosed) {
    E.open = "match";
    const r = results[results.length - 1];
    const rematchBtn = table.rematch_next ? `<button class="primary" data-testid="goto-rematch" id="goto-rematch">${t("go_rematch")}</button>`
      : (me !== null || hostToken) ? `<button class="primary" data-testid="rematch" id="rematch">${t("rematch")}</button>` : "";
    html = `<div class="banner roundend match" data-testid="match-over" role="dialog" aria-labelledby="re-title">
      <div class="re-head"><h2 id="re-title">${t("match_over")}</h2><button class="re-x" id="re-close-x" aria-label="${esc(R("close"))}" title="${esc(R("close"))}">✕</button></div>
      ${standings(game, view)}
      ${r ? `<h3>${esc(R("last_round_title", {n: r.round}))}</h3>${roundSection(game, view, r, last, true)}` : ""}
      ${game === "solo" || results.length < 2 ? "" : `<h3>${esc(R("all_rounds"))}</h3>${matchTable(game, view)}`}
      <div class="re-actions">${rematchBtn}
        <a class="button" href="/api/tables/${esc(table.id)}/record" download="saboteur-${esc(table.id)}.json" data-testid="record-link">${esc(R("download_record"))}</a>
        <button id="re-close" data-testid="close-results">${esc(R("close"))}</button></div></div>`;
  } else if (table.status !== "finished" && results.length > E.ack) {
    E.open = "round";
    const r = results[results.length - 1];
    html = `<div class="banner roundend" data-testid="round-over" role="dialog" aria-labelledby="re-title">
      <div class="re-head"><h2 id="re-title">${t("round_over", {n: r.round})}</h2></div>
      ${roundSection(game, view, r, last, false)}
      <div class="re-actions"><button class="primary" id="close-banner" data-testid="close-banner">${esc(R("next_round", {n: r.round + 1}))}</button></div></div>`;
  }
  box.innerHTML = html ? `<div class="re-backdrop" aria-hidden="true"></div>${html}` : "";
  const shownKey = E.open ? `${table.id}/${E.open}/${results.length}` : null;
  if (shownKey && shownKey !== E.focused) {  // a panel just opened: its main button takes the focus
    const main = $("#close-banner") || $("#rematch") || $("#goto-rematch") || $("#re-close");
    if (main) main.focus({preventScroll: true});
  }
  E.focused = shownKey;
  const on = (id, fn) => { const el = $(id); if (el) el.onclick = fn; };
  const showBoard = () => { const b = $("#board-wrap"); if (b) b.scrollIntoView({block: "nearest"}); };
  on("#close-banner", () => { E.ack = results.length; localStorage.setItem(ackKey(table.id), String(E.ack)); render(); showBoard(); });
  const close = () => { E.matchClosed = true; localStorage.setItem(ackKey(table.id), String(results.length)); render(); showBoard(); };
  on("#re-close", close);
  on("#re-close-x", close);
  on("#rematch", async () => {
    try {
      const r = await api(`/api/tables/${table.id}/rematch`, {method: "POST", headers: {"X-Seat-Token": S.token || hostToken}});
      if (hostToken) localStorage.setItem(`host:${r.id}`, hostToken);
      location.hash = `#/t/${r.id}/${S.token || ""}`;
    } catch (err) { feedback(errorText(err)); }
  });
  on("#goto-rematch", () => {
    if (hostToken) localStorage.setItem(`host:${table.rematch_next}`, hostToken);
    location.hash = `#/t/${table.rematch_next}/${S.token || ""}`;
  });
  renderResults(ctx);  // the side panel's "show again" follows the panel
}

/** Whether a round or match panel is open (the table's keys are held off meanwhile). */
export const roundEndOpen = () => !!E.open && !!$("#overlay .banner");

/** Escape closes an open round or match panel (the keyboard module calls this). */
export function closeRoundEnd() {
  const b = $("#close-banner") || $("#re-close");
  if (b) { b.click(); return true; }
  return false;
}
