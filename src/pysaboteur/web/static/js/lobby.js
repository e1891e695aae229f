/* The lobby (quick play, a new table, open tables) and the host's invite panel. */
import {S, $, esc} from "./store.js";
import {t, tr} from "./i18n.js";
import {api, feedback, errorText} from "./net.js";

export async function renderLobby(app) {
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
      <label>${t("players")} <input id="new-players" data-testid="new-players" type="number" min="1" max="12"></label>
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

export async function createTable(body) {
  try {
    const made = await api("/api/tables", {method: "POST", body: JSON.stringify(body)});
    localStorage.setItem(`host:${made.id}`, made.host_token);
    localStorage.setItem(`links:${made.id}`, JSON.stringify(made.seats));
    const mine = made.seats.find((s) => s.token);
    location.hash = mine ? `#/t/${made.id}/${mine.token}` : `#/t/${made.id}`;
  } catch (err) { feedback(errorText(err)); }
}

/** The host's panel of an open table: the links to send and the start button. */
export function renderInvite(box, ctx) {
  const hostToken = localStorage.getItem(`host:${ctx.table.id}`);
  if (!hostToken || ctx.table.status !== "open") { box.innerHTML = ""; return; }
  const links = JSON.parse(localStorage.getItem(`links:${ctx.table.id}`) || "[]");
  box.innerHTML = `<div class="panel host"><b>${t("invite")}</b><ul>${links.filter((l) => l.link).map((l) => `<li>${t("seat")} ${l.seat + 1}: <input readonly value="${esc(location.origin + l.link)}"></li>`).join("")}</ul>
      <button class="primary" id="start" data-testid="start">${t("start")}</button></div>`;
  $("#start", box).onclick = async () => {
    try { await api(`/api/tables/${ctx.table.id}/start`, {method: "POST", headers: {"X-Seat-Token": hostToken}}); } catch (err) { feedback(errorText(err)); }
  };
}
