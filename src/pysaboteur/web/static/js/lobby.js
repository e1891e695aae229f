/* The lobby (quick play, "my tables", a new table, open tables), the join route
 * (#/join/<id>) and the host's invite panel of an open table.
 *
 * Seat tokens live in localStorage as `seat:<table id>` -> token (main.js stores the token
 * of every table link opened); `my-tables` keeps, per table, its game and when this browser
 * first held a seat there.  "My tables" asks POST /api/tables/mine about them and forgets
 * those the server no longer knows.  The host token of a table this browser made is
 * `host:<id>`, its creation answer's seat links `links:<id>`.
 */
import {S, $, $$, esc, render} from "./store.js";
import {tr, tg} from "./i18n.js";
import {api, feedback, errorText} from "./net.js";

const MINE_KEY = "my-tables";
const MAX_MINE = 50;  // what POST /api/tables/mine answers at once

/** A lobby string in the page's language (the "lobby" group of i18n/<lang>.lobby.json). */
const L = (key, vars = {}) => tg("lobby", key, vars);

// -- "my tables": what this browser remembers -------------------------------------------
function readMine() {
  let list = [];
  try { list = JSON.parse(localStorage.getItem(MINE_KEY) || "[]"); } catch { list = []; }
  if (!Array.isArray(list)) list = [];
  const known = new Map(list.filter((e) => e && typeof e.id === "string").map((e) => [e.id, e]));
  for (let i = 0; i < localStorage.length; i++) {  // seats opened by link, not yet listed
    const key = localStorage.key(i);
    if (key && key.startsWith("seat:") && !known.has(key.slice(5))) {
      known.set(key.slice(5), {id: key.slice(5), game: null, created: 0});
    }
  }
  return [...known.values()].filter((e) => localStorage.getItem(`seat:${e.id}`))
    .sort((a, b) => (b.created || 0) - (a.created || 0));
}
function writeMine(list) { localStorage.setItem(MINE_KEY, JSON.stringify(list)); }

/** Remember that this browser holds a seat at a table (creation, joining). */
export function rememberSeat(id, token, game, created = Date.now() / 1000) {
  localStorage.setItem(`seat:${id}`, token);
  const list = readMine().filter((e) => e.id !== id);
  list.unshift({id, game, created});
  writeMine(list);
}
function forget(id) {
  for (const key of [`seat:${id}`, `host:${id}`, `links:${id}`]) localStorage.removeItem(key);
}

/** Ask the server about the tables this browser holds seats at; forget the unknown ones. */
async function fetchMine() {
  const list = readMine();
  const asked = list.slice(0, MAX_MINE);
  for (const old of list.slice(MAX_MINE)) forget(old.id);  // the oldest beyond what is shown
  if (!asked.length) { writeMine([]); return []; }
  const found = await api("/api/tables/mine", {method: "POST", body: JSON.stringify(
    {seats: asked.map((e) => ({id: e.id, token: localStorage.getItem(`seat:${e.id}`)}))})});
  const byId = new Map(found.map((f) => [f.id, f]));
  for (const e of asked) if (!byId.has(e.id)) forget(e.id);
  writeMine(asked.filter((e) => byId.has(e.id)).map((e) => {
    const f = byId.get(e.id);
    return {id: e.id, game: f.game, created: e.created || f.created};
  }));
  return found.sort((a, b) => b.created - a.created);
}

function nameOf(names, kinds, seat) {
  if (names[seat]) return names[seat];
  return L(kinds[seat] === "bot" ? "default_bot" : "default_player", {n: seat + 1});
}
function stateOf(f) {
  if (f.status === "open") return {cls: "waiting", text: L("state_waiting")};
  if (f.status === "finished") return {cls: "finished", text: L("state_finished")};
  if (f.your_turn) return {cls: "your-turn", text: L("state_your_turn")};
  if (f.turn_of !== null) return {cls: "playing", text: L("state_turn_of", {name: nameOf(f.seats, f.kinds, f.turn_of)})};
  return {cls: "playing", text: L("state_playing")};
}
function mineItem(f) {
  const token = localStorage.getItem(`seat:${f.id}`);
  const state = stateOf(f);
  const round = f.status === "open" ? "" : `<span class="round">${esc(f.rounds ? L("round_of", {n: f.round, m: f.rounds}) : L("round_n", {n: f.round}))}</span>`;
  const others = f.seats.map((_, i) => i).filter((i) => i !== f.seat).map((i) => nameOf(f.seats, f.kinds, i));
  const rematch = f.rematch_next ? `<a class="button" href="#/t/${esc(f.rematch_next)}/${esc(token)}" data-testid="mine-rematch-${esc(f.id)}">${L("go_rematch")}</a>` : "";
  return `<li class="mine-item ${state.cls}" data-testid="mine-${esc(f.id)}">
      <div class="mine-what"><b>${esc(tr("games", f.game, f.title))}</b>
        <span class="mine-state" data-testid="mine-state">${esc(state.text)}</span>${round}
        <div class="mine-seats">${esc(L("with", {names: others.join(", ") || "—"}))}</div></div>
      <div class="mine-go"><a class="button primary" href="#/t/${esc(f.id)}/${esc(token)}" data-testid="mine-return-${esc(f.id)}">${L(f.status === "finished" ? "show" : "return")}</a>${rematch}</div>
    </li>`;
}

// -- the new-table form: a draft kept while the page lives -----------------------------------
const draft = {game: null, players: null, seats: [], options: {}, public: true, hints: true};

function gameOf(name) { return S.games.find((g) => g.name === name) || S.games[0]; }
function defaultSeat(i) { return i === 0 ? {kind: "human", name: "", difficulty: "normal"} : {kind: "bot", name: "", difficulty: "normal"}; }

/** Set the draft to ``game`` and ``players``: seats already set stay as they are. */
function shape(gameName, players) {
  const g = gameOf(gameName);
  if (draft.game !== g.name) {
    draft.game = g.name;
    draft.options = Object.fromEntries((g.options_schema || []).map((o) => [o.name, o.default]));
  }
  let n = Number(players);
  if (!Number.isInteger(n) || n < g.min_players || n > g.max_players) n = draft.players && draft.players >= g.min_players && draft.players <= g.max_players ? draft.players : g.default_players;
  draft.players = n;
  while (draft.seats.length < n) draft.seats.push(defaultSeat(draft.seats.length));
  // seats beyond the count are kept aside: raising the count again brings them back
  for (const o of g.options_schema || []) {  // a seat option must name a seat at the table
    if (o.seat && draft.options[o.name] > n - 1) draft.options[o.name] = n - 1;
  }
}

function choiceLabel(o, value) {
  const key = `${o.name}=${JSON.stringify(value)}`;
  return tr("lobby_choices", key, value === null ? "—" : String(value));
}
function optionLabel(name) { return tr("lobby_options", name, tr("options", name, name)); }

function optionControl(o) {
  const id = `opt-${o.name}`;
  const value = draft.options[o.name];
  const label = `<span class="opt-name">${esc(optionLabel(o.name))}</span>`;
  if (o.type === "bool") {
    return `<label class="option bool" for="${id}"><input type="checkbox" id="${id}" data-opt="${esc(o.name)}" data-testid="${id}" ${value ? "checked" : ""}> ${label}</label>`;
  }
  if (o.type === "choice") {
    const opts = o.choices.map((c, i) => `<option value="${i}" ${JSON.stringify(c) === JSON.stringify(value) ? "selected" : ""}>${esc(choiceLabel(o, c))}</option>`).join("");
    return `<label class="option" for="${id}">${label} <select id="${id}" data-opt="${esc(o.name)}" data-testid="${id}">${opts}</select></label>`;
  }
  if (o.seat) {  // a seat: chosen by its number among the table's seats
    const opts = Array.from({length: draft.players}, (_, i) => `<option value="${i}" ${i === value ? "selected" : ""}>${esc(seatTitle(i))}</option>`).join("");
    return `<label class="option" for="${id}">${label} <select id="${id}" data-opt="${esc(o.name)}" data-testid="${id}">${opts}</select></label>`;
  }
  return `<label class="option" for="${id}">${label} <input type="number" id="${id}" data-opt="${esc(o.name)}" data-testid="${id}" min="${o.min}" max="${o.max}" step="1" value="${esc(value)}" inputmode="numeric"></label>`;
}
function seatTitle(i) {
  const s = draft.seats[i];
  const name = s && s.name.trim();
  return name ? `${L("seat_n", {n: i + 1})}: ${name}` : L("seat_n", {n: i + 1});
}

function seatRow(s, i) {
  const kinds = ["human", "open", "bot"].map((k) => `<option value="${k}" ${s.kind === k ? "selected" : ""}>${L(`kind_${k}`)}</option>`).join("");
  const level = s.kind === "bot" ? `<select data-seat-level="${i}" data-testid="seat-level-${i}" aria-label="${esc(L("difficulty"))}">${
    ["easy", "normal", "hard"].map((d) => `<option value="${d}" ${s.difficulty === d ? "selected" : ""}>${L(d)}</option>`).join("")}</select>` : "";
  const placeholder = s.kind === "bot" ? L("default_bot", {n: i + 1}) : L("default_player", {n: i + 1});
  const name = s.kind === "open" ? "" : `<input data-seat-name="${i}" data-testid="seat-name-${i}" placeholder="${esc(placeholder)}" maxlength="40" value="${esc(s.name)}" aria-label="${esc(L("name"))}">`;
  return `<li class="seat-spec" data-testid="seat-${i}"><span class="seat-no">${i + 1}</span>
      <select data-seat-kind="${i}" data-testid="seat-kind-${i}" aria-label="${esc(L("seat_n", {n: i + 1}))}">${kinds}</select>${level}${name}</li>`;
}

/** The whole form from the draft (a new game or page); seats and options drawn apart. */
function drawForm() {
  drawPlayers();
  $("#new-seats").innerHTML = "";
  drawSeats();
  drawOptions();
}
function drawPlayers() {
  const g = gameOf(draft.game), input = $("#new-players");
  input.min = g.min_players; input.max = g.max_players;
  input.value = draft.players;
  input.disabled = g.min_players === g.max_players;
  $("#players-range").textContent = g.min_players === g.max_players ? "" : `${g.min_players}–${g.max_players}`;
}
/** The seat rows: rows already drawn stay (and keep focus); rows are added or taken away. */
function drawSeats() {
  const box = $("#new-seats");
  const rows = $$(":scope > li", box);
  for (const row of rows.slice(draft.players)) row.remove();
  for (let i = rows.length; i < draft.players; i++) {
    box.insertAdjacentHTML("beforeend", seatRow(draft.seats[i], i));
    bindSeat(i);
  }
}
function redrawSeat(i) {
  const row = $(`[data-testid=seat-${i}]`);
  row.outerHTML = seatRow(draft.seats[i], i);
  bindSeat(i);
}
function bindSeat(i) {
  const row = $(`[data-testid=seat-${i}]`);
  const kind = $("[data-seat-kind]", row), level = $("[data-seat-level]", row), name = $("[data-seat-name]", row);
  kind.onchange = () => {
    draft.seats[i].kind = kind.value;
    redrawSeat(i);
    $(`[data-testid=seat-kind-${i}]`).focus();
  };
  if (level) level.onchange = () => { draft.seats[i].difficulty = level.value; };
  if (name) {
    name.oninput = () => { draft.seats[i].name = name.value; };
    name.onchange = () => { drawSeatOptions(); };
  }
}
function drawOptions() {
  const schema = gameOf(draft.game).options_schema || [];
  $("#new-options").innerHTML = schema.length ? schema.map(optionControl).join("") : `<p class="dim">${L("no_options")}</p>`;
  for (const el of $$("[data-opt]")) {
    const o = schema.find((x) => x.name === el.dataset.opt);
    el.onchange = () => {
      if (o.type === "bool") draft.options[o.name] = el.checked;
      else if (o.type === "choice") draft.options[o.name] = o.choices[+el.value];
      else draft.options[o.name] = Number(el.value);
    };
    if (o.type === "int" && !o.seat) el.oninput = el.onchange;
  }
}
/** The seats a seat option lists follow the seats (their count, their names). */
function drawSeatOptions() {
  for (const o of (gameOf(draft.game).options_schema || []).filter((x) => x.seat)) {
    const el = $(`#opt-${o.name}`);
    if (!el) continue;
    el.innerHTML = Array.from({length: draft.players}, (_, i) => `<option value="${i}">${esc(seatTitle(i))}</option>`).join("");
    el.value = String(draft.options[o.name]);
  }
}

/** The options as the server takes them, or an error text for the first bad one. */
function draftOptions() {
  const g = gameOf(draft.game);
  const out = {};
  for (const o of g.options_schema || []) {
    const v = draft.options[o.name];
    if (o.type === "int") {
      const top = o.seat ? Math.min(o.max ?? Infinity, draft.players - 1) : o.max;
      if (!Number.isInteger(v) || v < o.min || v > top) return {error: L("bad_number", {name: optionLabel(o.name), min: o.seat ? o.min + 1 : o.min, max: o.seat ? top + 1 : top})};
    }
    out[o.name] = v;
  }
  return {options: out};
}

// -- the lobby page ------------------------------------------------------------------------
const OPEN_SHOWN = 8;  // open tables listed before "show all"
let showAllOpen = false;
let lobbyDraws = 0;  // the lists fetched for an older drawing of the page are dropped

export async function renderLobby(app, route = S.route) {
  if (route && route.page === "join") { await renderJoin(app, route.id); return; }
  if (!S.games.length) S.games = await api("/api/games");
  if (!draft.game) shape(S.games.find((g) => g.name === "classic") ? "classic" : S.games[0].name, null);
  const gameOpts = S.games.map((g) => `<option value="${esc(g.name)}" ${g.name === draft.game ? "selected" : ""}>${esc(tr("games", g.name, g.title))}</option>`).join("");
  // the page at once (the form from the draft), the lists when the server answers
  app.innerHTML = `
    <div class="lobby"><div class="col">
    <section class="panel quick">
      <h2>${L("quick_play")}</h2>
      <button id="quick-duel" data-testid="quick-duel" class="primary">${L("play_duel_bot")}</button>
      <button id="quick-solo" data-testid="quick-solo">${L("play_solo")}</button>
      <a href="#/learn" class="learn-to-play" data-testid="learn-to-play">${L("learn_to_play")}</a>
      <a href="#/puzzles" class="puzzles-link" data-testid="puzzles-link">${L("puzzles")}</a>
    </section>
    <section class="panel mine" data-testid="my-tables">
      <h2>${L("my_tables")}</h2>
      <div id="mine-body" aria-live="polite"><p class="dim">…</p></div>
    </section>
    </div><div class="col">
    <section class="panel new-table" data-testid="new-table">
      <h2>${L("new_table")}</h2>
      <div class="row">
        <label>${L("game")} <select id="new-game" data-testid="new-game">${gameOpts}</select></label>
        <label>${L("players")} <input id="new-players" data-testid="new-players" type="number" step="1" inputmode="numeric"> <span id="players-range" class="dim"></span></label>
      </div>
      <h3>${L("seats")}</h3>
      <ol id="new-seats" class="seats" data-testid="new-seats"></ol>
      <h3>${L("options")}</h3>
      <div id="new-options" class="options" data-testid="new-options"></div>
      <div class="row">
        <label><input id="new-public" data-testid="new-public" type="checkbox" ${draft.public ? "checked" : ""}> ${L("public_table")}</label>
        <label><input id="new-hints" data-testid="new-hints" type="checkbox" ${draft.hints ? "checked" : ""}> ${L("allow_hints")}</label>
        <button id="create" data-testid="create" class="primary">${L("create")}</button>
      </div>
    </section>
    </div><div class="col">
    <section class="panel open-tables">
      <h2>${L("open_tables")}</h2>
      <ul id="lobby" data-testid="lobby"><li class="dim">…</li></ul>
    </section>
    </div></div>`;
  drawForm();
  $("#new-game").onchange = () => {
    const before = draft.game;
    shape($("#new-game").value, null);
    drawPlayers(); drawSeats();
    if (draft.game !== before) drawOptions();
  };
  $("#new-players").onchange = () => {
    shape(draft.game, $("#new-players").value);
    drawPlayers(); drawSeats(); drawSeatOptions();
  };
  $("#new-public").onchange = () => { draft.public = $("#new-public").checked; };
  $("#new-hints").onchange = () => { draft.hints = $("#new-hints").checked; };
  $("#create").onclick = async () => {
    const {options, error} = draftOptions();
    if (error) { feedback(error); return; }
    const seats = draft.seats.slice(0, draft.players).map((s) => ({
      kind: s.kind, name: s.kind === "open" ? null : (s.name.trim() || null),
      difficulty: s.kind === "bot" ? s.difficulty : null}));
    const people = seats.filter((s) => s.kind !== "bot").length;
    await createTable({game: draft.game, players: draft.players, seats, options,
                       public: draft.public, hints: draft.hints, start: people <= 1 && seats.every((s) => s.kind !== "open")});
  };
  $("#quick-duel").onclick = () => createTable({game: "duel", seats: [{kind: "human"}, {kind: "bot", difficulty: "normal"}], start: true, public: false});
  $("#quick-solo").onclick = () => createTable({game: "solo", seats: [{kind: "human"}], start: true, public: false});

  const stamp = ++lobbyDraws;
  const [lobby, mine] = await Promise.all([
    api("/api/tables").catch(() => []),
    fetchMine().catch(() => null)]);
  const mineBox = $("#mine-body"), lobbyBox = $("#lobby");
  if (stamp !== lobbyDraws || !mineBox || !lobbyBox) return;  // drawn again or left meanwhile
  mineBox.innerHTML = mine === null ? `<p class="error">${L("mine_unavailable")}</p>`
    : mine.length ? `<ul class="mine-list">${mine.map(mineItem).join("")}</ul>` : `<p class="dim">${L("no_my_tables")}</p>`;
  const mineIds = new Set((mine || []).map((f) => f.id));
  const open = lobby.filter((tb) => !mineIds.has(tb.id));
  const shown = showAllOpen ? open : open.slice(0, OPEN_SHOWN);
  const more = open.length - shown.length;
  lobbyBox.innerHTML = (open.length ? shown.map((tb) => `
        <li><span class="what"><b>${esc(tr("games", tb.game, tb.title))}</b> · ${esc(L("players_n", {n: tb.players}))} ·
          ${tb.seats.map((s, i) => esc(s.kind === "open" ? L("free_seat") : s.name || L(s.kind === "bot" ? "default_bot" : "default_player", {n: i + 1}))).join(", ")}</span>
          <span class="actions">${tb.free_seats ? `<button data-join="${esc(tb.id)}" data-testid="join-${esc(tb.id)}">${L("join")}</button>` : ""}
          <a href="#/t/${esc(tb.id)}">${L("watch")}</a></span></li>`).join("") : `<li class="dim">${L("no_open_tables")}</li>`)
    + (more > 0 ? `<li class="more"><button data-testid="show-all-open" id="show-all-open">${esc(L("show_all", {n: open.length}))}</button></li>` : "");
  for (const b of $$("[data-join]", lobbyBox)) b.onclick = () => join(b.dataset.join);
  const all = $("#show-all-open", lobbyBox);
  if (all) all.onclick = () => { showAllOpen = true; render(); };
}

export async function createTable(body) {
  try {
    const made = await api("/api/tables", {method: "POST", body: JSON.stringify(body)});
    localStorage.setItem(`host:${made.id}`, made.host_token);
    localStorage.setItem(`links:${made.id}`, JSON.stringify(made.seats));
    const mine = made.seats.find((s) => s.token);
    if (mine) rememberSeat(made.id, mine.token, made.table.game);
    location.hash = mine ? `#/t/${made.id}/${mine.token}` : `#/t/${made.id}`;
  } catch (err) { feedback(errorText(err)); }
}

/** Take a free seat of table ``id`` (a seat this browser holds already: go back to it). */
async function join(id) {
  const held = localStorage.getItem(`seat:${id}`);
  if (held) { location.hash = `#/t/${id}/${held}`; return true; }
  try {
    const joined = await api(`/api/tables/${encodeURIComponent(id)}/join`, {method: "POST", body: JSON.stringify({name: null})});
    rememberSeat(joined.id, joined.token, null);
    location.hash = `#/t/${joined.id}/${joined.token}`;
    return true;
  } catch (err) { feedback(errorText(err)); return err; }
}

async function renderJoin(app, id) {
  app.innerHTML = `<section class="panel"><p>${L("joining")}</p></section>`;
  const result = await join(id);
  if (result === true) return;
  app.innerHTML = `<section class="panel" data-testid="join-failed"><p class="error">${esc(L("join_failed", {reason: errorText(result)}))}</p>
    <p><a href="#/t/${esc(id)}">${L("watch")}</a> · <a href="#/">${L("back_to_lobby")}</a></p></section>`;
}

// -- the invite panel of an open table --------------------------------------------------------
/** The panel above an open table: to its host, a link for every other seat to send (private
 * links for people, the join link for open seats; never the host's own) and Start; to
 * everybody else, that the host will start. */
export function renderInvite(box, ctx) {
  const table = ctx.table;
  const hostToken = localStorage.getItem(`host:${table.id}`);
  let html = "";
  if (table.status === "open" && !hostToken) {
    html = `<div class="panel invite waiting" data-testid="invite-waiting">${L("waiting_host")}</div>`;
  } else if (table.status === "open") {
    const links = new Map(JSON.parse(localStorage.getItem(`links:${table.id}`) || "[]").map((l) => [l.seat, l]));
    const rows = table.seats.map((seat, i) => {
      if (i === ctx.me || seat.kind === "bot") return "";
      const name = seat.name || L("default_player", {n: i + 1});
      const link = links.get(i);
      let url = null, what = "", state = "";
      if (seat.kind === "open") {
        url = `/#/join/${table.id}`; what = L("open_seat_link");
        state = L("not_joined");
      } else if (link && link.kind === "human" && link.link) {
        url = link.link; what = L("private_link");
        state = seat.connected ? L("joined") : L("not_joined");
      } else {  // an open seat that somebody took meanwhile
        state = seat.connected ? L("joined") : L("taken");
      }
      const field = url ? `<div class="link-row"><input readonly value="${esc(location.origin + url)}" data-testid="invite-link-${i}" aria-label="${esc(what)}">
          <button class="small" data-copy="${i}" data-testid="copy-${i}">${L("copy")}</button></div>` : "";
      const who = seat.kind === "open" ? L("seat_n", {n: i + 1}) : `${L("seat_n", {n: i + 1})} · ${name}`;
      return `<li data-testid="invite-seat-${i}"><span class="who">${esc(who)}</span>
          ${what ? `<span class="what">${esc(what)}</span>` : ""} <span class="state ${seat.connected ? "here" : "away"}">${esc(state)}</span>${field}</li>`;
    }).filter(Boolean);
    html = `<div class="panel invite host" data-testid="invite">
        <b>${L("invite_title")}</b> <span class="dim">${L("invite_hint")}</span>
        ${rows.length ? `<ul>${rows.join("")}</ul>` : ""}
        <button class="primary" id="start" data-testid="start">${L("start")}</button></div>`;
  }
  if (box.dataset.drawn === html) return;  // drawn each frame: keep selections and focus
  box.dataset.drawn = html;
  box.innerHTML = html;
  for (const b of $$("[data-copy]", box)) {
    b.onclick = async () => {
      const input = $(`[data-testid=invite-link-${b.dataset.copy}]`, box);
      try { await navigator.clipboard.writeText(input.value); } catch {
        input.select(); document.execCommand && document.execCommand("copy");
      }
      feedback(L("copied"), "info");
    };
  }
  const start = $("#start", box);
  if (start) {
    start.onclick = async () => {
      try { await api(`/api/tables/${table.id}/start`, {method: "POST", headers: {"X-Seat-Token": hostToken}}); } catch (err) { feedback(errorText(err)); }
    };
  }
}
