/* pysaboteur browser client: plain JavaScript, no build step.
 *
 * The server is the only authority: it sends this seat its view and, on its turn,
 * its legal actions; the page only helps to pick one and sends its notation.
 * Card pictures are SVG fragments drawn by pysaboteur.svg on the server
 * (/api/games/{game}/cards); the page composes them into the board and the hand.
 */
"use strict";

const S = {
  lang: "en", tr: {}, games: [], cards: {},        // cards[game] = payload
  route: null, ws: null, wsTries: 0, msg: null,     // last state message
  table: null, token: null, selected: null, rotated: false,
  passMode: false, passSel: [], choice: null, shownResults: -1, log: [],
};
const $ = (sel, root = document) => root.querySelector(sel);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));

/* -- translations ----------------------------------------------------------------- */
function t(key, vars = {}) {
  let s = (S.tr.ui && S.tr.ui[key]) || key;
  for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, v);
  return s;
}
function tr(group, key, fallback) {
  const g = S.tr[group] || {};
  return g[key] !== undefined ? g[key] : (fallback !== undefined ? fallback : key);
}
async function setLanguage(lang) {
  if (!["en", "de", "nl"].includes(lang)) lang = "en";
  S.tr = await (await fetch(`/api/i18n/${lang}`)).json();
  S.lang = lang;
  localStorage.setItem("lang", lang);
  document.documentElement.lang = lang;
  $("#lang").value = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  render();
}
function cardName(game, code) {
  if (!code) return "";
  const named = S.tr.cards && S.tr.cards[code];
  if (named) return named;
  const card = S.cards[game] && S.cards[game].cards[code];
  if (!card) return code;
  const tools = (card.tools || []).map((x) => tr("tools", x)).join(" + ");
  if (card.category === "action") {
    const pattern = S.tr.effects && S.tr.effects[card.effect];
    return pattern ? pattern.replaceAll("{tools}", tools) : card.name;
  }
  if (card.tile !== undefined) {
    const f = card.features || {};
    const parts = [];
    if (f.door) parts.push(tr("features", "door").replace("{colour}", tr("colours", f.door)));
    if (f.ladder) parts.push(tr("features", "ladder").replace("{colour}", tr("colours", f.ladder)));
    if (f.troll) parts.push(tr("features", "troll"));
    if (f.crystals) parts.push(tr("features", "crystals"));
    if (f.obstacle) parts.push(tr("tools", f.obstacle));
    if (f.rock) parts.push(tr("features", "rock"));
    if (f.campfire) parts.push(tr("features", "campfire"));
    if (f.gold) parts.push(tr("features", "gold").replace("{n}", f.gold));
    const shape = S.tr.shapes && S.tr.shapes[card.tile];
    let base = tr("categories", card.category, card.category);
    if (card.category === "start" && code.includes("-")) base += " " + tr("colours", code.split("-").pop());
    if (card.category === "mine") base += " " + tr("mines", code.replace("mine-", ""), code.replace("mine-", ""));
    const head = parts.length ? parts.join(", ") : base;
    return `${head}${parts.length && card.category !== "path" ? " (" + base + ")" : ""} ${shape || card.tile}`;
  }
  return tr("categories", card.category, card.name) + (card.value ? ` ${card.value}` : "");
}
function seatLabel(seat) {
  const info = S.msg && S.msg.table.seats[seat];
  const name = info ? info.name : `${seat}`;
  return S.msg && S.msg.seat === seat ? `${name} (${t("you")})` : name;
}
function moveText(text) {
  // translate the card codes inside a move of the log, keep the notation readable
  return esc(text);
}

/* -- feedback ----------------------------------------------------------------------- */
let feedbackTimer = null;
function feedback(text, kind = "error") {
  const el = $("#feedback");
  el.textContent = text;
  el.className = "show " + kind;
  clearTimeout(feedbackTimer);
  feedbackTimer = setTimeout(() => { el.className = ""; }, kind === "error" ? 6000 : 2500);
}
function errorText(err) {
  const known = S.tr.errors && S.tr.errors[err.code];
  if (err.code === "illegal" || err.code === "bad-notation") return `${known || t("illegal")}: ${err.message}`;
  return known || err.message || String(err);
}

/* -- HTTP ---------------------------------------------------------------------------- */
async function api(path, options = {}) {
  const r = await fetch(path, {headers: {"Content-Type": "application/json", ...(options.headers || {})}, ...options});
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw (body.detail && body.detail.code ? body.detail : {code: `http-${r.status}`, message: JSON.stringify(body.detail || body)});
  return body;
}
async function loadCards(game) {
  if (!S.cards[game]) S.cards[game] = await api(`/api/games/${game}/cards`);
  return S.cards[game];
}

/* -- routing ------------------------------------------------------------------------- */
function parseRoute() {
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  if (parts[0] === "t" && parts[1]) return {page: "table", id: parts[1], token: parts[2] || null};
  return {page: "lobby"};
}
async function onRoute() {
  const route = parseRoute();
  if (S.ws) { S.ws.onclose = null; S.ws.close(); S.ws = null; }
  S.route = route; S.msg = null; S.selected = null; S.passMode = false; S.passSel = []; S.choice = null;
  S.shownResults = -1;
  if (route.page === "table") {
    S.token = route.token;
    if (route.token) localStorage.setItem(`seat:${route.id}`, route.token);
    connect();
  }
  render();
}

/* -- WebSocket ----------------------------------------------------------------------- */
function connect() {
  const route = S.route;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/api/tables/${route.id}/ws`);
  S.ws = ws;
  ws.onopen = () => { S.wsTries = 0; ws.send(JSON.stringify({type: "hello", token: route.token})); };
  ws.onmessage = async (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") {
      await loadCards(msg.table.game);
      const before = S.msg;
      S.msg = msg;
      if (!before || before.index !== msg.index) { S.selected = S.selected && msg.view.hand && msg.view.hand.includes(S.selected) ? S.selected : null; S.choice = null; S.passSel = []; }
      if (S.selected && !msg.legal.length) S.selected = null;
      render();
    } else if (msg.type === "error") {
      feedback(errorText(msg));
      if (["bad-token", "no-table"].includes(msg.code)) { S.fatal = errorText(msg); render(); }
    } else if (msg.type === "rematch") {
      feedback(t("rematch_ready"), "info");
      if (S.msg) { S.msg.table.rematch_next = msg.table; render(); }
    }
  };
  ws.onclose = (ev) => {
    if (S.ws !== ws || ev.code >= 4400) return;
    S.wsTries += 1;
    setTimeout(() => { if (S.ws === ws) connect(); }, Math.min(5000, 300 * S.wsTries));
  };
}
function send(text) {
  if (!S.msg || !S.ws || S.ws.readyState !== 1) { feedback(t("not_connected")); return; }
  S.ws.send(JSON.stringify({type: "action", action: text, index: S.msg.index}));
}

/* -- the lobby --------------------------------------------------------------------------- */
async function renderLobby(app) {
  if (!S.games.length) S.games = await api("/api/games");
  const lobby = await api("/api/tables").catch(() => []);
  const gameOpts = S.games.map((g) => `<option value="${g.name}">${esc(tr("games", g.name, g.title))}</option>`).join("");
  app.innerHTML = `
    <section class="panel">
      <h2>${t("quick_play")}</h2>
      <button id="quick-duel" data-testid="quick-duel" class="primary">${t("play_duel_bot")}</button>
      <button id="quick-solo" data-testid="quick-solo">${t("play_solo")}</button>
    </section>
    <section class="panel">
      <h2>${t("new_table")}</h2>
      <label>${t("game")} <select id="new-game" data-testid="new-game">${gameOpts}</select></label>
      <label>${t("players")} <input id="new-players" type="number" min="1" max="12"></label>
      <div id="new-seats"></div>
      <div id="new-options"></div>
      <label><input id="new-public" type="checkbox" checked> ${t("public_table")}</label>
      <button id="create" data-testid="create" class="primary">${t("create")}</button>
    </section>
    <section class="panel">
      <h2>${t("open_tables")}</h2>
      <ul id="lobby" data-testid="lobby">${lobby.length ? lobby.map((tb) => `
        <li>${esc(tr("games", tb.game, tb.title))} · ${tb.players} ${t("players")} ·
          ${tb.seats.map((s) => esc(s.kind === "open" ? t("free_seat") : s.name)).join(", ")}
          ${tb.free_seats ? `<button data-join="${tb.id}">${t("join")}</button>` : ""}
          <a href="#/t/${tb.id}">${t("watch")}</a></li>`).join("") : `<li>${t("no_open_tables")}</li>`}
      </ul>
    </section>`;
  const gameSel = $("#new-game"), playersIn = $("#new-players");
  const seatsBox = $("#new-seats"), optionsBox = $("#new-options");
  function drawSeats() {
    const g = S.games.find((x) => x.name === gameSel.value);
    let n = parseInt(playersIn.value, 10);
    if (!(n >= g.min_players && n <= g.max_players)) { n = g.default_players; playersIn.value = n; }
    playersIn.min = g.min_players; playersIn.max = g.max_players;
    seatsBox.innerHTML = Array.from({length: n}, (_, i) => `
      <div class="seat-spec">${t("seat")} ${i + 1}:
        <select data-seat-kind="${i}">
          <option value="human" ${i === 0 ? "selected" : ""}>${t("kind_human")}</option>
          <option value="open">${t("kind_open")}</option>
          <option value="bot" ${i > 0 ? "selected" : ""}>${t("kind_bot")}</option>
        </select>
        <select data-seat-level="${i}">
          <option value="easy">${t("easy")}</option><option value="normal" selected>${t("normal")}</option><option value="hard">${t("hard")}</option>
        </select>
        <input data-seat-name="${i}" placeholder="${t("name")}" maxlength="40">
      </div>`).join("");
    optionsBox.innerHTML = Object.entries(g.options).map(([k, v]) => `
      <label class="option">${esc(tr("options", k, k))}
        ${typeof v === "boolean" ? `<input type="checkbox" data-opt="${k}" data-type="bool" ${v ? "checked" : ""}>`
          : `<input data-opt="${k}" data-type="${typeof v === "number" ? "number" : "text"}" value="${v === null ? "" : esc(v)}">`}
      </label>`).join("");
  }
  gameSel.onchange = () => { playersIn.value = ""; drawSeats(); };
  playersIn.onchange = drawSeats;
  drawSeats();
  $("#create").onclick = async () => {
    const n = parseInt(playersIn.value, 10);
    const seats = Array.from({length: n}, (_, i) => ({
      kind: $(`[data-seat-kind="${i}"]`).value, difficulty: $(`[data-seat-level="${i}"]`).value,
      name: $(`[data-seat-name="${i}"]`).value || null}));
    const options = {};
    for (const el of document.querySelectorAll("[data-opt]")) {
      if (el.dataset.type === "bool") options[el.dataset.opt] = el.checked;
      else if (el.value === "") continue;
      else if (el.dataset.type === "number") options[el.dataset.opt] = Number(el.value);
      else options[el.dataset.opt] = /^-?\d+$/.test(el.value) ? Number(el.value) : el.value;
    }
    const allOthersBots = seats.filter((s) => s.kind !== "bot").length <= 1;
    await createTable({game: gameSel.value, players: n, seats, options, public: $("#new-public").checked, start: allOthersBots && seats.every((s) => s.kind !== "open")});
  };
  $("#quick-duel").onclick = () => createTable({game: "duel", seats: [{kind: "human"}, {kind: "bot", difficulty: "normal"}], start: true, public: false});
  $("#quick-solo").onclick = () => createTable({game: "solo", seats: [{kind: "human"}], start: true, public: false});
  for (const b of document.querySelectorAll("[data-join]")) {
    b.onclick = async () => {
      try {
        const joined = await api(`/api/tables/${b.dataset.join}/join`, {method: "POST", body: JSON.stringify({name: null})});
        location.hash = `#/t/${joined.id}/${joined.token}`;
      } catch (err) { feedback(errorText(err)); }
    };
  }
}
async function createTable(body) {
  try {
    const made = await api("/api/tables", {method: "POST", body: JSON.stringify(body)});
    localStorage.setItem(`host:${made.id}`, made.host_token);
    localStorage.setItem(`links:${made.id}`, JSON.stringify(made.seats));
    const mine = made.seats.find((s) => s.token);
    location.hash = mine ? `#/t/${made.id}/${mine.token}` : `#/t/${made.id}`;
  } catch (err) { feedback(errorText(err)); }
}

/* -- the table ----------------------------------------------------------------------------- */
const CW = 100, CH = 150;
function legalFor(pred) { return (S.msg ? S.msg.legal : []).filter(pred); }
function cellTargets() {
  const sel = S.selected;
  const out = new Map();
  for (const a of S.msg.legal) {
    if (sel && a.card === sel && a.kind === "PlacePath" && a.rotated === S.rotated) out.set(`${a.x},${a.y}`, a);
    else if (sel && a.card === sel && (a.kind === "PlayOnCell" || a.kind === "PlayOnJoint")) out.set(`${a.x},${a.y}`, a);
    else if (!sel && a.kind === "Bribe") out.set(`${a.x},${a.y}`, a);
  }
  return out;
}
function seatTargets() {
  const sel = S.selected;
  const out = new Set();
  for (const a of S.msg.legal) if (sel && a.card === sel && a.kind === "PlayOnPlayer") out.add(a.target);
  for (const a of S.msg.legal) if (!sel && a.kind === "Steal") out.add(a.target);
  return out;
}
function cardSvg(game, code, rotated, cls = "card") {
  const c = S.cards[game] && S.cards[game].cards[code];
  const inner = c ? (rotated && c.svg_r ? c.svg_r : c.svg) : S.cards[game].back;
  return `<svg class="${cls}" viewBox="0 0 ${CW} ${CH}" role="img" aria-label="${esc(cardName(game, code))}"><title>${esc(cardName(game, code))}</title>${inner}</svg>`;
}
function drawBoard(view, game) {
  const cards = S.cards[game];
  const targets = S.msg.legal.length ? cellTargets() : new Map();
  const cells = [];
  for (const p of view.board) cells.push([p.x, p.y]);
  for (const c of view.face_down || []) cells.push(c);
  for (const k of targets.keys()) cells.push(k.split(",").map(Number));
  if (!cells.length) cells.push([0, 0]);
  const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
  const x0 = Math.min(...xs) - 1, x1 = Math.max(...xs) + 1, y0 = Math.min(...ys) - 1, y1 = Math.max(...ys) + 1;
  const at = (x, y, inner, extra = "") => `<g transform="translate(${(x - x0) * CW},${(y - y0) * CH})" ${extra}>${inner}</g>`;
  const parts = [];
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++)
    parts.push(at(x, y, `<rect class="slot" x="3" y="3" width="${CW - 6}" height="${CH - 6}" rx="8"/>`, `data-cell="${x},${y}"`));
  const known = new Map((view.known_goals || []).map((k) => [`${k[0]},${k[1]}`, k[2]]));
  for (const p of view.board) parts.push(at(p.x, p.y, (cards.cards[p.card] ? (p.rotated && cards.cards[p.card].svg_r ? cards.cards[p.card].svg_r : cards.cards[p.card].svg) : cards.back), `data-cell="${p.x},${p.y}" data-card="${esc(p.card)}"`));
  for (const c of view.face_down || []) {
    const code = known.get(`${c[0]},${c[1]}`);
    const peek = code && cards.cards[code] ? `<g transform="translate(52,4) scale(0.44)">${cards.cards[code].svg}</g>` : "";
    parts.push(at(c[0], c[1], cards.back + peek, `data-cell="${c[0]},${c[1]}" data-facedown="1"`));
  }
  const pend = view.pending_goal || (view.pending && view.pending.length >= 3 && typeof view.pending[2] === "string" ? view.pending : null);
  if (pend && cards.cards[pend[2]]) parts.push(at(pend[0], pend[1], cards.cards[pend[2]].svg + `<rect x="2" y="2" width="96" height="146" rx="8" class="pending"/>`, `data-cell="${pend[0]},${pend[1]}"`));
  const colours = view.colours || [];
  const seatColour = (s) => ({blue: "#2f6fdb", green: "#2e9e44", yellow: "#e0b400", red: "#d23c3c"})[colours[s]] || ["#e0b400", "#2f6fdb", "#d23c3c", "#2e9e44", "#8a4fd1", "#e8821e", "#15a3a3", "#c2409a", "#6b8e23", "#7f7f7f", "#1e1e8c", "#8c4a1e"][s % 12];
  for (const m of view.markers || []) parts.push(at(m[0], m[1], `<circle cx="80" cy="20" r="11" fill="${seatColour(m[2])}" stroke="#fff" stroke-width="3"/>`));
  for (const m of view.bribes || []) parts.push(at(m[0], m[1], `<circle cx="20" cy="20" r="11" fill="${seatColour(m[2])}" stroke="#000" stroke-width="3"/>`));
  for (const k of view.keys || []) parts.push(at(k[0], k[1], `<g transform="translate(62,96)"><circle cx="10" cy="10" r="8" fill="#f2c230" stroke="#8a6500" stroke-width="3"/><rect x="7" y="17" width="6" height="22" fill="#f2c230" stroke="#8a6500" stroke-width="2"/></g>`));
  (view.pawns || []).forEach((p, s) => { if (p) parts.push(at(p[0], p[1], `<circle cx="${20 + 12 * (s % 6)}" cy="${120 - 12 * Math.floor(s / 6)}" r="9" fill="${seatColour(s)}" stroke="#000" stroke-width="2"/>`)); });
  for (const [k] of targets) {
    const [x, y] = k.split(",").map(Number);
    parts.push(at(x, y, `<rect class="target" x="5" y="5" width="${CW - 10}" height="${CH - 10}" rx="8"/>`, `data-cell="${x},${y}" data-target="1" data-testid="target-${x}_${y}"`));
  }
  const w = (x1 - x0 + 1) * CW, h = (y1 - y0 + 1) * CH;
  return `<svg id="board-svg" data-testid="board" viewBox="0 0 ${w} ${h}" style="width:${(x1 - x0 + 1) * 64}px;aspect-ratio:${w}/${h}">${parts.join("")}</svg>`;
}
function onBoardClick(ev) {
  const g = ev.target.closest("[data-cell]");
  if (!g || !S.msg) return;
  const [x, y] = g.dataset.cell.split(",").map(Number);
  if (!S.msg.legal.length) { feedback(S.msg.table.status === "playing" ? t("not_your_turn") : t("no_moves")); return; }
  const sel = S.selected;
  if (!sel) {
    const bribe = legalFor((a) => a.kind === "Bribe" && a.x === x && a.y === y)[0];
    if (bribe) { send(bribe.text); return; }
    feedback(t("pick_card_first"));
    return;
  }
  const card = S.cards[S.msg.table.game].cards[sel];
  const joints = legalFor((a) => a.card === sel && a.kind === "PlayOnJoint" && a.x === x && a.y === y);
  if (joints.length) { S.choice = {title: t("choose_side"), actions: joints}; render(); return; }
  const exact = legalFor((a) => a.card === sel && ((a.kind === "PlacePath" && a.rotated === S.rotated) || a.kind === "PlayOnCell") && a.x === x && a.y === y)[0];
  if (exact) { send(exact.text); return; }
  // not legal: let the server say why (it refuses and changes nothing)
  if (card && card.tile !== undefined) {
    const turned = legalFor((a) => a.card === sel && a.kind === "PlacePath" && a.x === x && a.y === y)[0];
    if (turned) { feedback(t("rotate_to_fit")); return; }
    send(`${sel}@${x},${y}${S.rotated ? "r" : ""}`);
  } else {
    send(`${sel}@${x},${y}`);
  }
}
function onSeatClick(seat) {
  if (!S.msg || !S.msg.legal.length) return;
  const sel = S.selected;
  const acts = sel ? legalFor((a) => a.kind === "PlayOnPlayer" && a.card === sel && a.target === seat)
    : legalFor((a) => a.kind === "Steal" && a.target === seat);
  if (acts.length === 1) send(acts[0].text);
  else if (acts.length > 1) { S.choice = {title: t("choose_tool"), actions: acts}; render(); }
  else if (sel) send(`${sel}>${seat}`);
}
function actionLabel(a) {
  const game = S.msg.table.game;
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
    case "PlayOnTreasure": return `${cardName(game, a.card)} → #${a.slot + 1}`;
    default: return a.text;
  }
}
const CLICKED_KINDS = new Set(["PlacePath", "PlayOnCell", "PlayOnPlayer", "Pass", "Discard", "Bribe", "PlayOnJoint"]);
function renderTable(app) {
  const msg = S.msg;
  if (S.fatal) { app.innerHTML = `<section class="panel"><p class="error">${esc(S.fatal)}</p><a href="#/">${t("back_to_lobby")}</a></section>`; return; }
  if (!msg) { app.innerHTML = `<p>${t("connecting")}</p>`; return; }
  const view = msg.view, table = msg.table, game = table.game;
  const me = msg.seat;
  const myTurn = msg.legal.length > 0;
  $("#subtitle").textContent = tr("games", game, table.title);
  const status = table.status === "open" ? t("waiting_start")
    : table.status === "finished" ? t("match_over")
    : myTurn ? t("your_turn") : t("turn_of", {name: seatLabel(view.current_player)});
  const info = [`${t("round")} ${view.round}/${view.rounds}`, `${t("deck")} ${view.deck_size}`];
  if (view.phase && view.phase !== "main") info.push(tr("phases", view.phase, view.phase));
  if (view.keys_left !== undefined) info.push(`${t("keys")} ${view.keys_left}`);
  if (view.role) info.push(`${t("your_role")}: ${cardName(game, view.role)}`);
  if (view.identity) info.push(`${t("your_role")}: ${cardName(game, view.identity)}`);
  if (view.gold !== undefined && typeof view.gold === "number") info.push(`${t("your_gold")}: ${view.gold}`);
  const targets = myTurn ? seatTargets() : new Set();
  const scores = view.final_scores || view.scores;
  const players = Array.from({length: view.players}, (_, s) => {
    const seat = table.seats[s];
    const front = (view.in_front[s] || []).map((c) => `<span class="mini" title="${esc(cardName(game, c))}">${cardSvg(game, c, false, "mini-card")}</span>`).join("");
    const gold = scores ? `<span class="score" data-testid="score-${s}">${t("gold")} ${scores[s] === null ? "?" : scores[s]}</span>` : "";
    const markers = view.markers_left ? `<span>${t("markers")} ${view.markers_left[s]}</span>` : "";
    const colour = view.colours ? `<span class="chip ${esc(view.colours[s])}"></span>` : "";
    return `<div class="player ${s === view.current_player ? "active" : ""} ${targets.has(s) ? "targetable" : ""} ${s === me ? "me" : ""}" data-seat="${s}" data-testid="player-${s}">
      <div class="pname">${colour}${esc(seatLabel(s))} ${seat.kind === "bot" ? `<small>(${t(seat.difficulty || "easy")})</small>` : ""} ${seat.connected ? "" : `<small class="off">${t("offline")}</small>`}</div>
      <div class="pstats"><span>${t("cards")} ${view.hand_sizes[s]}</span>${gold}${markers}</div>
      <div class="front">${front}</div></div>`;
  }).join("");
  const hand = view.hand ? view.hand.map((c, i) => {
    const cls = ["hand-card"];
    if (S.selected === c && !S.passMode) cls.push("selected");
    if (S.passMode && S.passSel.includes(i)) cls.push("selected");
    const playable = msg.legal.some((a) => a.card === c);
    if (playable) cls.push("playable");
    return `<button class="${cls.join(" ")}" data-hand="${i}" data-code="${esc(c)}" data-testid="hand-${i}" title="${esc(cardName(game, c))}">${cardSvg(game, c, S.selected === c && S.rotated && !S.passMode)}<span class="cname">${esc(cardName(game, c))}</span></button>`;
  }).join("") : `<p>${t("spectating")}</p>`;
  // moves that are not made by clicking the board or a player
  const extra = msg.legal.filter((a) => !CLICKED_KINDS.has(a.kind));
  const passable = msg.legal.some((a) => a.kind === "Pass" || a.kind === "Discard");
  const selectedTile = S.selected && S.cards[game].cards[S.selected] && S.cards[game].cards[S.selected].svg_r;
  let passBar = "";
  if (S.passMode) {
    const codes = S.passSel.map((i) => view.hand[i]).sort();
    const passText = `pass ${codes.join(" ")}`;
    const pass = msg.legal.find((a) => a.kind === "Pass" && a.text === passText);
    const discards = msg.legal.filter((a) => a.kind === "Discard" && a.cards.join(" ") === codes.join(" "));
    passBar = `<div class="passbar">${t("select_to_pass")}
      <button data-testid="confirm-pass" ${pass ? `data-act="${esc(pass.text)}"` : "disabled"}>${t("pass_selected")}</button>
      ${discards.map((a) => `<button data-act="${esc(a.text)}">${esc(actionLabel(a))}</button>`).join("")}
      <button data-testid="cancel-pass" id="cancel-pass">${t("cancel")}</button></div>`;
  }
  let choice = "";
  if (S.choice) choice = `<div class="choice"><b>${esc(S.choice.title)}</b> ${S.choice.actions.map((a) => `<button data-act="${esc(a.text)}">${esc(actionLabel(a))}</button>`).join("")} <button id="cancel-choice">${t("cancel")}</button></div>`;
  let orient = "";
  const orients = msg.legal.filter((a) => a.kind === "Orient");
  const pend = view.pending_goal;
  if (orients.length && pend) orient = `<div class="choice"><b>${t("choose_orientation")}</b> ${orients.map((a) => `<button class="orient" data-act="${esc(a.text)}" data-testid="orient-${a.rotated ? "r" : "n"}">${cardSvg(game, pend[2], a.rotated, "orient-card")}</button>`).join("")}</div>`;
  const results = (view.results || []);
  const resultsRows = results.map((r) => `<tr><td>${r.round}</td>${(r.gold || []).map((g) => `<td>${g === null ? "?" : g}</td>`).join("")}</tr>`).join("");
  const resultsTable = results.length ? `<table class="results" data-testid="results"><tr><th>${t("round")}</th>${Array.from({length: view.players}, (_, s) => `<th>${esc(seatLabel(s))}</th>`).join("")}</tr>${resultsRows}
    ${scores ? `<tr class="total"><td>${t("total")}</td>${scores.map((g) => `<td>${g === null ? "?" : g}</td>`).join("")}</tr>` : ""}</table>` : "";
  let banner = "";
  if (table.status === "finished") {
    const best = scores ? Math.max(...scores.filter((x) => x !== null)) : null;
    const winners = scores ? scores.map((g, s) => (g === best ? seatLabel(s) : null)).filter(Boolean) : [];
    const rematchBtn = table.rematch_next ? `<button class="primary" data-testid="goto-rematch" id="goto-rematch">${t("go_rematch")}</button>`
      : (me !== null || localStorage.getItem(`host:${table.id}`)) ? `<button class="primary" data-testid="rematch" id="rematch">${t("rematch")}</button>` : "";
    banner = `<div class="banner" data-testid="match-over"><h2>${t("match_over")}</h2><p>${winners.length ? t("winner", {names: winners.join(", ")}) : ""}</p>${resultsTable}${rematchBtn}</div>`;
  } else if (S.shownResults >= 0 && results.length > S.shownResults) {
    const r = results[results.length - 1];
    banner = `<div class="banner" data-testid="round-over"><h2>${t("round_over", {n: r.round})}</h2>${resultsTable}<button id="close-banner" data-testid="close-banner">${t("continue")}</button></div>`;
  }
  if (S.shownResults < 0) S.shownResults = results.length;
  let host = "";
  const hostToken = localStorage.getItem(`host:${table.id}`);
  if (hostToken && table.status === "open") {
    const links = JSON.parse(localStorage.getItem(`links:${table.id}`) || "[]");
    host = `<div class="panel host"><b>${t("invite")}</b><ul>${links.filter((l) => l.link).map((l) => `<li>${t("seat")} ${l.seat + 1}: <input readonly value="${esc(location.origin + l.link)}"></li>`).join("")}</ul>
      <button class="primary" id="start" data-testid="start">${t("start")}</button></div>`;
  }
  const logItems = view.log.slice(-80).reverse().map(([s, m]) => `<li><b>${esc(seatLabel(s))}</b> ${moveText(m)}</li>`).join("");
  app.innerHTML = `
    ${host}
    <div class="status ${myTurn ? "mine" : ""}" data-testid="status">${esc(status)} <small>${esc(info.join(" · "))}</small></div>
    <div class="players">${players}</div>
    <div class="board-wrap" id="board-wrap">${drawBoard(view, game)}</div>
    ${orient}${choice}${passBar}
    <div class="hand" data-testid="hand">${hand}</div>
    <div class="tools">
      ${selectedTile ? `<button id="rotate" data-testid="rotate">⟲ ${t("rotate")}</button>` : ""}
      ${passable && !S.passMode ? `<button id="pass-mode" data-testid="pass-mode">${t("pass_or_discard")}</button>` : ""}
      ${extra.filter((a) => a.kind !== "Orient").map((a) => `<button data-act="${esc(a.text)}" data-testid="act-${esc(a.kind)}">${esc(actionLabel(a))}</button>`).join("")}
      ${S.selected ? `<details><summary>${t("all_moves")}</summary>${msg.legal.filter((a) => a.card === S.selected).slice(0, 200).map((a) => `<button class="small" data-act="${esc(a.text)}">${esc(a.text)}</button>`).join("")}</details>` : ""}
    </div>
    ${banner}
    <details class="panel" open><summary>${t("results")}</summary>${resultsTable || t("no_results")}</details>
    <details class="panel log" open><summary>${t("log")}</summary><ol data-testid="log">${logItems}</ol></details>`;
  // events
  $("#board-svg").addEventListener("click", onBoardClick);
  for (const el of document.querySelectorAll("[data-seat]")) el.onclick = () => onSeatClick(Number(el.dataset.seat));
  for (const el of document.querySelectorAll("[data-hand]")) el.onclick = () => {
    const i = Number(el.dataset.hand), code = el.dataset.code;
    if (S.passMode) { S.passSel = S.passSel.includes(i) ? S.passSel.filter((x) => x !== i) : [...S.passSel, i]; }
    else if (S.selected === code) { S.selected = null; }
    else {
      S.selected = code; S.rotated = false; S.choice = null;
      if (!msg.legal.length) feedback(table.status === "playing" ? t("not_your_turn") : t("no_moves"));
      else if (!msg.legal.some((a) => a.card === code)) feedback(t("card_not_playable"), "info");
    }
    render();
  };
  for (const el of document.querySelectorAll("[data-act]")) el.onclick = () => { S.choice = null; S.passMode = false; send(el.dataset.act); };
  const on = (id, fn) => { const el = $(id); if (el) el.onclick = fn; };
  on("#rotate", () => { S.rotated = !S.rotated; render(); });
  on("#pass-mode", () => { S.passMode = true; S.selected = null; S.passSel = []; render(); });
  on("#cancel-pass", () => { S.passMode = false; S.passSel = []; render(); });
  on("#cancel-choice", () => { S.choice = null; render(); });
  on("#close-banner", () => { S.shownResults = results.length; render(); });
  on("#start", async () => { try { await api(`/api/tables/${table.id}/start`, {method: "POST", headers: {"X-Seat-Token": hostToken}}); } catch (err) { feedback(errorText(err)); } });
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
}

/* -- render -------------------------------------------------------------------------------- */
let rendering = false;
async function render() {
  const app = $("#app");
  if (!S.route || rendering) return;
  rendering = true;
  try {
    if (S.route.page === "table") renderTable(app);
    else { $("#subtitle").textContent = ""; await renderLobby(app); }
  } catch (err) {
    console.error(err);
    feedback(String(err.message || err));
  } finally { rendering = false; }
}

async function main() {
  $("#lang").onchange = (ev) => setLanguage(ev.target.value);
  let lang = localStorage.getItem("lang");
  if (!lang) {
    const nav = (navigator.languages && navigator.languages[0]) || navigator.language || "";
    lang = ["en", "de", "nl"].includes(nav.slice(0, 2)) ? nav.slice(0, 2) : (await api("/api/i18n")).preferred;
  }
  window.addEventListener("hashchange", onRoute);
  S.route = parseRoute();
  await setLanguage(lang);
  await onRoute();
}
window.__state = () => S.msg;  // for tests and the curious: only what this seat was sent
main();
