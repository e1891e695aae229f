/* Talking to the server: JSON over HTTP, the table's WebSocket, and feedback to the player. */
import {S, $, render} from "./store.js";
import {t, tg} from "./i18n.js";
import {refusalText} from "./log.js";

let feedbackTimer = null;
export function feedback(text, kind = "error") {
  const el = $("#feedback");
  el.textContent = text;
  el.className = "show " + kind;
  clearTimeout(feedbackTimer);
  feedbackTimer = setTimeout(() => { el.className = ""; }, kind === "error" ? 6000 : 2500);
}
export function errorText(err) {
  const known = S.tr.errors && S.tr.errors[err.code];
  if (err.code === "illegal" || err.code === "bad-notation") return refusalText(err, lastSent);  // the move as the log writes it
  if (!known && S.lang !== "en" && S.tr.errors && S.tr.errors.other) return tg("errors", "other", {code: err.code || "?"});  // no English
  return known || err.message || String(err);
}

export async function api(path, options = {}) {
  const r = await fetch(path, {headers: {"Content-Type": "application/json", ...(options.headers || {})}, ...options});
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw (body.detail && body.detail.code ? body.detail : {code: `http-${r.status}`, message: JSON.stringify(body.detail || body)});
  return body;
}
export async function loadCards(game) {
  if (!S.cards[game]) S.cards[game] = await api(`/api/games/${game}/cards`);
  return S.cards[game];
}

/** Listeners told of every state message before it is drawn (old message, new message). */
const stateListeners = [];
export function onState(fn) { stateListeners.push(fn); }

/** Close codes after which reconnecting cannot help (server.py: no hello, bad token, no table). */
const FINAL_CLOSES = new Set([4400, 4403, 4404]);

export function connect() {
  const route = S.route;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/api/tables/${route.id}/ws`);
  S.ws = ws;
  ws.onopen = () => { S.wsTries = 0; ws.send(JSON.stringify({type: "hello", token: route.token})); };
  ws.onmessage = async (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") {
      await loadCards(msg.table.game);
      if (S.ws !== ws) return;
      const before = S.msg;
      S.msg = msg;
      if (!before || before.index !== msg.index) {
        // a pick survives the others' moves, not my own: after I played a card, a second
        // copy of it in my hand is not picked by itself
        const log = msg.view.log, mine = log.length && log[log.length - 1][0] === msg.seat;
        S.selected = !mine && S.selected && msg.view.hand && msg.view.hand.includes(S.selected) ? S.selected : null;
        if (mine) S.rotated = false;
        S.choice = null; S.passSel = [];
      }
      if (S.selected && !msg.legal.length) S.selected = null;
      for (const fn of stateListeners) fn(before, msg);
      render();
    } else if (msg.type === "error") {
      feedback(errorText(msg));
      if (["bad-token", "no-table"].includes(msg.code)) { S.fatal = errorText(msg); render(); }
    } else if (msg.type === "presence") {  // who is connected: connected[i] for seat i
      if (S.msg) { msg.connected.forEach((c, i) => { if (S.msg.table.seats[i]) S.msg.table.seats[i].connected = c; }); render(); }
    } else if (msg.type === "rematch") {
      feedback(t("rematch_ready"), "info");
      if (S.msg) { S.msg.table.rematch_next = msg.table; render(); }
    }
  };
  ws.onclose = (ev) => {
    // a wrong hello, token or table will not change by trying again; anything else (a
    // restart, a slow phone closed for falling behind, too many sockets) is retried
    if (S.ws !== ws || FINAL_CLOSES.has(ev.code)) return;
    S.wsTries += 1;
    setTimeout(() => { if (S.ws === ws) connect(); }, Math.min(15000, 300 * 2 ** Math.min(S.wsTries, 6)));
  };
}
export function disconnect() {
  if (S.ws) { S.ws.onclose = null; S.ws.close(); S.ws = null; }
}
let lastSent = null;
export function send(text) {
  lastSent = text;
  if (!S.msg || !S.ws || S.ws.readyState !== 1) { feedback(t("not_connected")); return; }
  S.ws.send(JSON.stringify({type: "action", action: text, index: S.msg.index}));
}
