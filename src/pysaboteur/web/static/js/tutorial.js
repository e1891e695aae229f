/* Tutorials (#/learn, #/learn/<game>): a scripted first round, then a free round.
 *
 * The server runs the script (pysaboteur.tutorials): each answer holds the step's texts in
 * every language and the learner's state message, shaped as a table's, so that the board,
 * the hand and the log are the table page's own (table.js).  The table page sends moves
 * through S.ws; here S.ws is a stand-in that posts them to the tutorial instead.  A wrong
 * move comes back with its explanation (the engine's own reason for an illegal one),
 * shown in the panel above the board.
 */
import {S, $, $$, esc, render} from "./store.js";
import {tg, tr} from "./i18n.js";
import {api, loadCards, feedback, errorText} from "./net.js";
import {renderTable, forgetLayout} from "./table.js";
import {setHint} from "./board.js";

const L = (key, vars = {}) => tg("tutorial", key, vars);
const pick = (text) => (text ? text[S.lang] || text.en : "");

let session = null;  // {route, id, game, data, explain, busy, shown}

function ensureCss() {
  if ($("#tutorial-css")) return;
  const link = document.createElement("link");
  link.id = "tutorial-css"; link.rel = "stylesheet"; link.href = "/static/css/tutorial.css";
  document.head.appendChild(link);
}

function stand_in() {
  return {readyState: 1, close() {}, send(data) {
    const m = JSON.parse(data);
    if (m.type === "action") tryMove(m.action);
  }};
}

function adopt(data) {
  const before = S.msg, msg = data.msg;
  S.msg = msg;
  if (!before || before.index !== msg.index) {
    S.selected = S.selected && msg.view.hand && msg.view.hand.includes(S.selected) ? S.selected : null;
    S.choice = null; S.passSel = []; S.passMode = false;
    if (session.shown) { session.shown = false; setHint(null); }
  }
  if (S.selected && !msg.legal.length) S.selected = null;
  session.data = data;
  render();
}

async function tryMove(text) {
  const s = session;
  if (!s || s.busy) return;
  s.busy = true;
  try {
    const data = await api(`/api/tutorials/session/${encodeURIComponent(s.id)}/moves`,
      {method: "POST", body: JSON.stringify({move: text})});
    if (session !== s) return;
    s.explain = data.outcome && !data.outcome.ok ? data.outcome.explain : null;
    if (s.explain) { S.selected = null; S.choice = null; S.passMode = false; S.passSel = []; }
    adopt(data);
  } catch (err) {
    feedback(errorText(err));
  } finally {
    s.busy = false;
  }
}

async function freeRound() {
  const s = session;
  try {
    const made = await api(`/api/tutorials/session/${encodeURIComponent(s.id)}/free`, {method: "POST"});
    session = null;
    location.hash = made.link.replace(/^\/?/, "");
  } catch (err) {
    feedback(errorText(err));
  }
}

/** "Show the move": the move asked for, its card picked (turned as the move has it) and its
 * cell ringed on the board, as "Suggest a move" does at a table. */
function showMove() {
  const s = session;
  if (!s || !s.data || !s.data.suggested) return;
  const a = S.msg.legal.find((x) => x.text === s.data.suggested);
  s.shown = true;
  if (a && a.card !== undefined && a.kind !== "Pass" && a.kind !== "Discard" && S.msg.view.hand && S.msg.view.hand.includes(a.card)) {
    S.selected = a.card; S.rotated = !!a.rotated; S.passMode = false; S.choice = null;
  }
  if (a) setHint(a); else render();
}

async function renderChooser(app) {
  const list = await api("/api/tutorials");
  S.msg = null;
  $("#subtitle").textContent = L("learn_to_play");
  app.innerHTML = `<section class="panel tutorial-list" data-testid="tutorial-list">
    <h2>${esc(L("learn_to_play"))}</h2><p>${esc(L("choose"))}</p>
    <ul>${list.map((g) => `<li><a href="#/learn/${esc(g.game)}" data-testid="learn-${esc(g.game)}">${esc(tr("games", g.game, pick(g.title)))}</a> <span class="dim">${esc(L("steps", {n: g.steps}))}</span></li>`).join("")}</ul>
    <p><a href="#/">${esc(tr("ui", "back_to_lobby"))}</a></p></section>`;
}

function panelHtml(s) {
  const d = s.data;
  const parts = [`<h2>${esc(pick(d.title))} <span class="dim">${esc(d.done ? L("finished") : L("step", {n: d.step + 1, total: d.steps}))}</span></h2>`];
  if (d.step === 0 && !d.done) parts.push(`<p class="tutorial-intro">${esc(pick(d.intro))}</p><p class="dim">${esc(L("coords_tip"))}</p>`);
  if (d.then) parts.push(`<p class="tutorial-then">${esc(pick(d.then))}</p>`);
  if (d.say) parts.push(`<p class="tutorial-say" data-testid="tutorial-say">${esc(pick(d.say))}</p>`);
  if (s.explain) parts.push(`<p class="tutorial-explain" role="alert" data-testid="tutorial-explain">${esc(pick(s.explain))}</p>`);
  if (d.done) {
    parts.push(`<p class="tutorial-outro" data-testid="tutorial-outro">${esc(pick(d.outro))}</p>`);
    parts.push(`<p><button class="primary" data-testid="tutorial-free" id="tutorial-free">${esc(L(s.game === "solo" ? "free_round_solo" : "free_round"))}</button> <a href="#/learn">${esc(L("other_games"))}</a></p>`);
  } else if (d.suggested) {
    parts.push(`<p class="tutorial-hint"><button class="small" id="tutorial-show" data-testid="tutorial-show">${esc(L("show_move"))}</button> <code data-testid="tutorial-suggested" ${s.shown ? "" : "hidden"}>${esc(d.suggested)}</code></p>`);
  }
  return parts.join("");
}

export async function renderTutorial(app, route) {
  ensureCss();
  if (!route.game) { session = null; await renderChooser(app); return; }
  if (!session || session.route !== route) {
    session = {route, id: null, game: route.game, data: null, explain: null, busy: false, shown: false};
    const s = session;
    try {
      const data = await api(`/api/tutorials/${encodeURIComponent(route.game)}`, {method: "POST"});
      await loadCards(data.game);
      if (session !== s) return;
      s.id = data.id;
      S.ws = stand_in();
      adopt(data);
    } catch (err) {
      S.fatal = errorText(err);
      app.innerHTML = `<section class="panel"><p class="error">${esc(S.fatal)}</p><a href="#/learn">${esc(L("learn_to_play"))}</a></section>`;
      S.fatal = null;
      session = null;
      return;
    }
  }
  if (!session.data) return;
  if (!$("#tutorial-page")) {
    forgetLayout();
    app.innerHTML = `<div id="tutorial-page" data-testid="tutorial-page"><section id="tutorial-panel" class="panel" data-testid="tutorial-panel" aria-live="polite"></section><div id="tutorial-table"></div></div>`;
  }
  $("#tutorial-panel").innerHTML = panelHtml(session);
  const free = $("#tutorial-free");
  if (free) free.onclick = freeRound;
  const show = $("#tutorial-show");
  if (show) show.onclick = showMove;
  renderTable($("#tutorial-table"));
  for (const el of $$("#tutorial-table [data-testid=invite], #tutorial-table .invite")) el.hidden = true;
}
