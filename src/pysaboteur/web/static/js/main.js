/* pysaboteur browser client: plain JavaScript modules, no build step.
 *
 * The server is the only authority: it sends this seat its view and, on its turn,
 * its legal actions; the page only helps to pick one and sends its notation.
 * Card pictures are SVG fragments drawn by pysaboteur.svg on the server
 * (/api/games/{game}/cards); the page composes them into the board and the hand.
 *
 * Modules: store (state), i18n (words), net (HTTP, WebSocket), lobby, table (layout),
 * board, hand, panels, log, roundend, keyboard, seats (colours).
 */
import {S, $, setRenderer} from "./store.js";
import {LANGUAGES, setLanguage} from "./i18n.js";
import {api, connect, disconnect, feedback} from "./net.js";
import {renderLobby} from "./lobby.js";
import {renderTutorial} from "./tutorial.js";
import {renderPuzzle} from "./puzzle.js";
import {renderTable, forgetLayout} from "./table.js";
import {resetBoard} from "./board.js";
import {resetRoundEnd} from "./roundend.js";
import {onKey} from "./keyboard.js";
import "./help.js";  // the Rules button, card help, the turn notice

function parseRoute() {
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  if (parts[0] === "t" && parts[1]) return {page: "table", id: parts[1], token: parts[2] || null};
  if (parts[0] === "join" && parts[1]) return {page: "join", id: parts[1]};
  if (parts[0] === "learn") return {page: "learn", game: parts[1] || null};
  if (parts[0] === "puzzles" || parts[0] === "puzzle") return {page: "puzzle", id: parts[0] === "puzzle" ? parts[1] || null : null};
  return {page: "lobby"};
}

async function onRoute() {
  const route = parseRoute();
  disconnect();
  S.route = route; S.msg = null; S.selected = null; S.passMode = false; S.passSel = []; S.choice = null; S.fatal = null;
  resetBoard(); resetRoundEnd(); forgetLayout();
  if (route.page === "table") {
    S.token = route.token;
    if (route.token) localStorage.setItem(`seat:${route.id}`, route.token);
    connect();
  }
  draw();
}

let drawing = false, again = false;
async function draw() {
  if (drawing) { again = true; return; }
  drawing = true;
  const app = $("#app");
  try {
    if (!S.route) return;
    if (S.route.page === "table") renderTable(app);
    else if (S.route.page === "learn") await renderTutorial(app, S.route);
    else if (S.route.page === "puzzle") await renderPuzzle(app, S.route);
    else { $("#subtitle").textContent = ""; await renderLobby(app, S.route); }
  } catch (err) {
    console.error(err);
    feedback(String(err.message || err));
  } finally {
    drawing = false;
    if (again) { again = false; draw(); }
  }
}

async function main() {
  setRenderer(draw);
  $("#lang").onchange = (ev) => setLanguage(ev.target.value);
  document.addEventListener("keydown", onKey);
  let lang = localStorage.getItem("lang");
  if (!lang) {
    const nav = (navigator.languages && navigator.languages[0]) || navigator.language || "";
    lang = LANGUAGES.includes(nav.slice(0, 2)) ? nav.slice(0, 2) : (await api("/api/i18n")).preferred;
  }
  window.addEventListener("hashchange", onRoute);
  S.route = parseRoute();
  await setLanguage(lang);
  await onRoute();
}
window.__state = () => S.msg;  // for tests and the curious: only what this seat was sent
main();
