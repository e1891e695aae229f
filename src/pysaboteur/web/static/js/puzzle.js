/* Puzzles (#/puzzles, #/puzzle/<id>): positions with a question the engine proves.
 *
 * GET /api/puzzles lists them; GET /api/puzzles/<id> gives the puzzle as its solver sees it
 * (the solver's view and legal moves, and what the puzzle tells: the gold's cell, a hand
 * shown), never the solution; POST /api/puzzles/<id>/answer says right or wrong, and why.
 * The board is the table page's picture (board.js worldSvg); the answer is typed in move
 * notation (or picked from the legal moves), a cell for "where is the gold?", a seat for
 * "which seat is the saboteur?"; the round's public log is shown beside the hand.
 */
import {S, $, $$, esc} from "./store.js";
import {tg, tr, cardName} from "./i18n.js";
import {api, loadCards, feedback, errorText} from "./net.js";
import {worldSvg, CW, CH} from "./board.js";

const L = (key, vars = {}) => tg("puzzle", key, vars);
const pick = (text) => (text ? text[S.lang] || text.en : "");

let current = null;  // {id, data, verdict, line}

function ensureCss() {
  if ($("#puzzle-css")) return;
  const link = document.createElement("link");
  link.id = "puzzle-css"; link.rel = "stylesheet"; link.href = "/static/css/puzzle.css";
  document.head.appendChild(link);
}

async function renderList(app) {
  const list = await api("/api/puzzles");
  S.msg = null;
  $("#subtitle").textContent = L("puzzles");
  const games = [...new Set(list.map((p) => p.game))];
  app.innerHTML = `<section class="panel puzzle-list" data-testid="puzzle-list">
    <h2>${esc(L("puzzles"))}</h2><p>${esc(L("intro"))}</p>
    ${games.map((g) => `<h3>${esc(tr("games", g, g))}</h3><ul>${list.filter((p) => p.game === g).map((p) =>
      `<li><a href="#/puzzle/${esc(p.id)}" data-testid="puzzle-${esc(p.id)}">${esc(pick(p.title))}</a> ${difficultyHtml(p)}</li>`).join("")}</ul>`).join("")}
    <p><a href="#/">${esc(tr("ui", "back_to_lobby"))}</a></p></section>`;
}

// how much reasoning the puzzle needs (easy, medium, hard), in the list and on the page
function difficultyHtml(p) {
  const level = p.difficulty || "easy";
  return `<span class="puzzle-difficulty dim" data-testid="puzzle-difficulty" data-difficulty="${esc(level)}">(${esc(L(`difficulty_${level}`))})</span>`;
}

function boardHtml(d) {
  const world = worldSvg(d.view, d.game);
  const [x0, y0, x1, y1] = world.bounds;
  const box = `${x0 * CW} ${y0 * CH} ${(x1 - x0 + 1) * CW} ${(y1 - y0 + 1) * CH}`;
  const labels = [];  // every cell's coordinates, for answers in notation
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++)
    labels.push(`<text class="coord" x="${x * CW + 6}" y="${y * CH + 20}">${x},${y}</text>`);
  // a goal I looked at shows its face under a dashed frame, as on the table's board (whose
  // style is scoped to #board-svg): without it the frame's default black fill hid the face
  const style = `<style>.puzzle-board .seen{fill:none;stroke:#7fe07f;stroke-width:5;stroke-dasharray:10 4}.puzzle-board .seen-label{fill:#7fe07f;font-size:15px;font-weight:bold;paint-order:stroke;stroke:#000;stroke-width:4px}</style>`;
  return `<svg class="puzzle-board" data-testid="puzzle-board" viewBox="${box}" role="img" aria-label="${esc(L("board"))}">${style}${world.svg}${labels.join("")}</svg>`;
}

function verdictHtml(v) {
  if (!v) return "";
  const words = L(`reason_${v.reason}`);
  const detail = v.detail ? ` ${v.detail}` : "";
  return `<p class="puzzle-verdict ${v.right ? "right" : "wrong"}" role="alert" data-testid="puzzle-verdict" data-right="${v.right}">${esc(words + detail)}</p>`;
}

function pageHtml(c) {
  const d = c.data;
  const facts = [];
  if (d.gold) facts.push(L("gold_at", {x: d.gold[0], y: d.gold[1]}));
  const hand = (d.view.hand || []).map((code) => `<li><code>${esc(code)}</code> <span class="dim">${esc(cardName(d.game, code))}</span></li>`).join("");
  const shown = d.shown ? `<p data-testid="puzzle-shown">${esc(L("shown", {seat: d.shown.seat}))} ${d.shown.hand.map((h) => `<code>${esc(h)}</code>`).join(" ")}</p>` : "";
  const asks = d.kind === "where" || d.kind === "saboteur";  // a cell or a seat, not moves
  const log = (d.view.log || []).slice(d.view.round_start || 0);
  const logHtml = log.length ? `<section class="panel puzzle-log" data-testid="puzzle-log"><h3>${esc(L("log"))}</h3><ol>${log.map(([seat, text]) =>
    `<li>${esc(L("seat_n", {n: seat}))}: <code>${esc(text)}</code></li>`).join("")}</ol></section>` : "";
  // dwarf cards only this seat has seen (Saboteur 2's inspections, The Lost Mines' information cards)
  const seen = [...(d.view.inspected || []), ...(d.view.known_dwarves || [])];
  const seenHtml = seen.length ? `<section class="panel puzzle-seen" data-testid="puzzle-seen"><h3>${esc(L("seen"))}</h3><ul>${seen.map(([seat, code]) =>
    `<li>${esc(L("seat_n", {n: seat}))}: ${esc(cardName(d.game, code))}</li>`).join("")}</ul></section>` : "";
  const legal = asks ? "" : `<details class="puzzle-legal"><summary>${esc(L("legal"))}</summary><div>${d.legal.map((a) =>
    `<button type="button" class="chip" data-move="${esc(a.text || a.notation || "")}">${esc(a.text || a.notation || "")}</button>`).join(" ")}</div></details>`;
  const placeholder = d.kind === "where" ? "8,0" : d.kind === "saboteur" ? "?" : L("placeholder");
  const how = d.kind === "where" ? L("how_cell") : d.kind === "saboteur" ? L("how_seat") : L("how_moves");
  return `<section class="panel puzzle-panel" data-testid="puzzle-panel">
      <h2 data-testid="puzzle-title">${esc(pick(d.title))} <span class="dim">${esc(tr("games", d.game, d.game))}</span> ${difficultyHtml(d)}</h2>
      <p class="puzzle-goal" data-testid="puzzle-goal">${esc(pick(d.goal))}</p>
      ${facts.length ? `<p class="dim">${facts.map(esc).join(" · ")}</p>` : ""}${shown}
      <form id="puzzle-form" class="puzzle-form">
        <input id="puzzle-answer" data-testid="puzzle-answer" autocomplete="off" spellcheck="false" placeholder="${esc(placeholder)}" aria-label="${esc(L("answer"))}" value="${esc(c.line)}">
        <button class="primary" type="submit" data-testid="puzzle-submit">${esc(L("check"))}</button>
        <button type="button" id="puzzle-clear">${esc(L("clear"))}</button>
      </form>
      <p class="dim">${esc(how)}</p>
      ${verdictHtml(c.verdict)}${legal}
      <p><a href="#/puzzles">${esc(L("all_puzzles"))}</a></p>
    </section>
    <div class="puzzle-body"><div class="puzzle-board-wrap">${boardHtml(d)}</div>
      <div class="puzzle-side"><section class="panel puzzle-hand"><h3>${esc(L("your_hand"))}</h3><ul>${hand}</ul></section>${seenHtml}${logHtml}</div></div>`;
}

async function submit(c) {
  const text = $("#puzzle-answer").value;
  c.line = text;
  const answer = text.split(";").map((s) => s.trim()).filter(Boolean);
  try {
    c.verdict = await api(`/api/puzzles/${encodeURIComponent(c.id)}/answer`,
      {method: "POST", body: JSON.stringify({answer})});
  } catch (err) {
    feedback(errorText(err));
    return;
  }
  if (current === c) draw(c);
}

function draw(c) {
  const app = $("#app");
  app.innerHTML = `<div id="puzzle-page" data-testid="puzzle-page">${pageHtml(c)}</div>`;
  $("#puzzle-form").onsubmit = (ev) => { ev.preventDefault(); submit(c); };
  $("#puzzle-answer").oninput = (ev) => { c.line = ev.target.value; };
  $("#puzzle-clear").onclick = () => { c.line = ""; c.verdict = null; draw(c); };
  for (const b of $$("#puzzle-page .chip")) b.onclick = () => {
    const input = $("#puzzle-answer");
    input.value = input.value.trim() ? `${input.value.trim()} ; ${b.dataset.move}` : b.dataset.move;
    c.line = input.value;
    input.focus();
  };
}

export async function renderPuzzle(app, route) {
  ensureCss();
  if (!route.id) { current = null; await renderList(app); return; }
  if (!current || current.id !== route.id) {
    const c = current = {id: route.id, data: null, verdict: null, line: ""};
    try {
      const data = await api(`/api/puzzles/${encodeURIComponent(route.id)}`);
      await loadCards(data.game);
      if (current !== c) return;
      c.data = data;
    } catch (err) {
      app.innerHTML = `<section class="panel"><p class="error">${esc(errorText(err))}</p><a href="#/puzzles">${esc(L("all_puzzles"))}</a></section>`;
      current = null;
      return;
    }
  }
  S.msg = null;
  $("#subtitle").textContent = L("puzzles");
  draw(current);
}
