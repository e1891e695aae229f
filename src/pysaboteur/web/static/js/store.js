/* The page's one state object and the few helpers every module uses.
 *
 * `S` holds what the server sent (the last state message: this seat's view and, on its
 * turn, its legal moves) and what the player has picked so far; nothing else.  Modules
 * read it and ask for a new frame with `render()`, which main.js wires up.
 */

export const S = {
  lang: "en", tr: {}, games: [], cards: {},        // cards[game] = the server's card payload
  route: null, ws: null, wsTries: 0, msg: null,     // msg: the last state message
  token: null, selected: null, rotated: false, fatal: null,
  passMode: false, passSel: [], choice: null,
};

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));

let renderer = () => {};
let pending = false;
/** main.js installs the renderer; every module calls render() after changing S. */
export function setRenderer(fn) { renderer = fn; }
export function render() {
  if (pending) return;
  pending = true;
  queueMicrotask(() => { pending = false; renderer(); });
}

/** The table message's parts every table module needs, read once per frame. */
export function tableContext() {
  const msg = S.msg;
  if (!msg) return null;
  return {msg, view: msg.view, table: msg.table, game: msg.table.game, me: msg.seat,
          myTurn: msg.legal.length > 0, legal: msg.legal};
}
export const legalFor = (pred) => (S.msg ? S.msg.legal : []).filter(pred);
