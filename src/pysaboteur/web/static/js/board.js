/* The board: drawn from the view alone, fitted to its box, panned and zoomed (wheel, drag,
 * pinch, buttons, keys), with the legal cells of the picked card, the other seats' moves
 * since my last one, a keyboard cursor and optional coordinates.
 *
 * The <svg> element stays while the table is open (its listeners and the camera with it);
 * each frame redraws only the world inside it.
 */
import {S, $, esc, render, legalFor} from "./store.js";
import {t, tr, cardName, seatName} from "./i18n.js";
import {send, feedback} from "./net.js";
import {seatColour, seatDisc} from "./seats.js";

export const CW = 100, CH = 150;  // a card in world units (the SVG fragments' size)
const MIN_SCALE = 0.15, MAX_SCALE = 3;
const CONTROLS_W = 46;  // px kept free on the right for the camera's buttons

const B = {
  cam: null,            // {s, tx, ty}: world -> screen pixels
  moved: false,         // the player moved the camera: stop fitting on every frame
  bounds: null,         // [x0, y0, x1, y1] in cells, of the last frame
  selected: undefined,  // the picked card of the last frame (to bring its cells into view)
  cursor: null,         // [x, y]: the keyboard's cell
  coords: localStorage.getItem("coords") === "1",
  marked: new Set(),    // cells marked in the last frame (new ones are animated)
  preview: null,        // the route shown while a pawn's destination is hovered
  hint: null,           // a suggested move (hint.js), its cell ringed: see setHint
};

export function resetBoard() {
  Object.assign(B, {cam: null, moved: false, bounds: null, selected: undefined, cursor: null,
                    marked: new Set(), preview: null, hint: null});
}

/** The cell of a suggested move (an action as in the legal list), or null. */
export function hintCell(a) {
  if (!a) return null;
  if (a.kind === "Move" && a.route && a.route.length) return a.route[a.route.length - 1];
  return typeof a.x === "number" && typeof a.y === "number" ? [a.x, a.y] : null;
}
/** Show a suggested move on the board (its cell ringed, brought into view); null: none. */
export function setHint(action) {
  B.hint = action || null;
  const c = hintCell(B.hint);
  if (c) bringIntoView([c]);
  render();
}

/* -- what can be done on a cell -------------------------------------------------------- */
/** Legal actions by cell "x,y" for the picked card (or, with none picked, bribes and moves). */
export function cellTargets() {
  const out = new Map();
  if (!S.msg) return out;
  const sel = S.selected;
  const add = (k, a) => { if (!out.has(k)) out.set(k, []); out.get(k).push(a); };
  for (const a of S.msg.legal) {
    if (sel && a.card === sel && a.kind === "PlacePath" && a.rotated === S.rotated) add(`${a.x},${a.y}`, a);
    else if (sel && a.card === sel && (a.kind === "PlayOnCell" || a.kind === "PlayOnJoint")) add(`${a.x},${a.y}`, a);
    else if (!sel && a.kind === "Bribe") add(`${a.x},${a.y}`, a);
    else if (!sel && a.kind === "Move") { const end = a.route[a.route.length - 1]; add(`${end[0]},${end[1]}`, a); }
  }
  return out;
}

/** The other seats' moves since my last one this round: cell -> the seat that acted there. */
function recentMoves(view) {
  const marks = new Map();
  const me = view.seat;
  const start = view.round_start || 0;
  for (let i = view.log.length - 1; i >= start; i--) {
    const [seat, text] = view.log[i];
    if (seat === me) break;
    const at = /@(-?\d+),(-?\d+)/.exec(text);
    if (at) { const k = `${at[1]},${at[2]}`; if (!marks.has(k)) marks.set(k, seat); }
    if (text.startsWith("move ")) {
      const cells = text.slice(5).trim().split(/\s+/);
      const k = cells[cells.length - 1];
      if (k && !marks.has(k)) marks.set(k, seat);
    }
  }
  return marks;
}

/* -- drawing ------------------------------------------------------------------------------ */
function boundsOf(view, game, targets, last) {
  const fixed = S.cards[game] && S.cards[game].bounds;
  if (fixed) return fixed.slice();
  const cells = [];
  const board = last ? last.board : view.board;
  for (const p of board) cells.push([p.x, p.y]);
  for (const c of (last ? last.face_down : view.face_down) || []) cells.push(c);
  for (const k of targets.keys()) cells.push(k.split(",").map(Number));
  if (!cells.length) cells.push([0, 0]);
  const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
  return [Math.min(...xs) - 1, Math.min(...ys) - 1, Math.max(...xs) + 1, Math.max(...ys) + 1];
}

function cardArt(game, code, rotated) {
  const c = S.cards[game].cards[code];
  if (!c) return S.cards[game].back;
  return rotated && c.svg_r ? c.svg_r : c.svg;
}

const at = (x, y, inner, extra = "", title = "") =>
  `<g transform="translate(${x * CW},${y * CH})" ${extra}>${title ? `<title>${esc(title)}</title>` : ""}${inner}</g>`;

/**
 * The world of one view as SVG (in world units).  ``last``: draw the board as the last
 * round ended instead (view.last_round), with no targets.
 */
export function worldSvg(view, game, {targets = new Map(), last = null, marks = new Map(), fresh = new Set(), routes = []} = {}) {
  const cards = S.cards[game];
  const [x0, y0, x1, y1] = boundsOf(view, game, targets, last);
  const parts = [];
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++)
    parts.push(at(x, y, `<rect class="slot" x="3" y="3" width="${CW - 6}" height="${CH - 6}" rx="8"/>`, `data-cell="${x},${y}"`));
  const board = last ? last.board : view.board;
  const known = new Map((view.known_goals || []).map((k) => [`${k[0]},${k[1]}`, k[2]]));
  for (const p of board) {
    parts.push(at(p.x, p.y, cardArt(game, p.card, p.rotated),
      `data-cell="${p.x},${p.y}" data-card="${esc(p.card)}"`, `${cardName(game, p.card)} (${p.x},${p.y})`));
  }
  for (const c of (last ? last.face_down : view.face_down) || []) {
    const code = last ? null : known.get(`${c[0]},${c[1]}`);
    // a goal I have looked at: its face, small, over the back, and a label saying what I saw
    const peek = code && cards.cards[code]
      ? `<g class="peek" transform="translate(18,22) scale(0.64)">${cards.cards[code].svg}</g><rect class="seen" x="3" y="3" width="94" height="144" rx="8"/>`
        + `<text class="seen-label" x="50" y="140" text-anchor="middle">${esc(t("seen"))}</text>` : "";
    const title = code ? `${t("seen")}: ${cardName(game, code)}` : t("face_down");
    parts.push(at(c[0], c[1], cards.back + peek, `data-cell="${c[0]},${c[1]}" data-facedown="1" ${code ? `data-seen="${esc(code)}"` : ""}`, title));
  }
  if (!last) {
    const pend = view.pending_goal || (view.pending && view.pending.length >= 3 && typeof view.pending[2] === "string" ? view.pending : null);
    if (pend && cards.cards[pend[2]]) parts.push(at(pend[0], pend[1], cards.cards[pend[2]].svg + `<rect x="2" y="2" width="96" height="146" rx="8" class="pending"/>`, `data-cell="${pend[0]},${pend[1]}"`));
  }
  // the legal cells under the tokens: a token stays visible, and clicking it is clicking its cell
  for (const [k, acts] of targets) {
    const [x, y] = k.split(",").map(Number);
    const label = acts[0].kind === "Move" ? t("move_here") : cardName(game, acts[0].card || "");
    parts.push(at(x, y, `<rect class="target" x="5" y="5" width="${CW - 10}" height="${CH - 10}" rx="8"/>`,
      `data-cell="${x},${y}" data-target="1" data-testid="target-${x}_${y}" role="button" aria-label="${esc(`${label} ${x},${y}`)}"`));
  }
  const src = last ? last.extra || {} : view;  // markers, bribes, keys, pawns
  for (const m of src.markers || []) parts.push(at(m[0], m[1], seatDisc(view, m[2], 80, 20, 13, "#fff")));
  for (const m of src.bribes || []) parts.push(at(m[0], m[1], seatDisc(view, m[2], 20, 20, 13)));
  for (const k of src.keys || []) parts.push(at(k[0], k[1], `<g transform="translate(62,96)"><circle cx="10" cy="10" r="8" fill="#f2c230" stroke="#8a6500" stroke-width="3"/><rect x="7" y="17" width="6" height="22" fill="#f2c230" stroke="#8a6500" stroke-width="2"/></g>`));
  // The Lost Mines: overcome obstacles on their cells, traps and trolls on the joints
  // between two cells ("E": with the cell east of it, "S": south)
  for (const f of src.forest || []) parts.push(at(f[0], f[1], `<g class="forest"><circle cx="80" cy="128" r="13"/><path d="M73 128 l5 6 l10 -12"/></g>`, "", t("overcome")));
  const joint = (x, y, side) => (side === "E" ? [x * CW + CW, y * CH + CH / 2] : [x * CW + CW / 2, y * CH + CH]);
  for (const [x, y, side] of src.traps || []) {
    const [jx, jy] = joint(x, y, side);
    parts.push(`<g class="trap" transform="translate(${jx},${jy})"><title>${esc(t("trap_here"))}</title><circle r="16"/><text dy="0.35em" text-anchor="middle">⚠</text></g>`);
  }
  for (const [x, y, side, owner] of src.trolls || []) {
    const [jx, jy] = joint(x, y, side);
    parts.push(`<g class="troll" transform="translate(${jx},${jy})"><title>${esc(t("troll_of", {name: seatName(owner)}))}</title>${seatDisc(view, owner, 0, 0, 17, "#b04de0")}</g>`);
  }
  const pawns = src.pawns || [];
  pawns.forEach((p, s) => {
    if (!p) return;
    const here = pawns.filter((q, r) => q && r < s && q[0] === p[0] && q[1] === p[1]).length;
    parts.push(at(p[0], p[1], seatDisc(view, s, 20 + 30 * (here % 3), 45 + 34 * Math.floor(here / 3), s === view.seat ? 19 : 16, s === view.seat ? "#fff" : "#000"),
      `data-cell="${p[0]},${p[1]}" data-pawn="${s}" class="pawn${s === view.seat ? " mine" : ""}"`, seatName(s)));
  });
  for (const [k, seat] of marks) {
    const [x, y] = k.split(",").map(Number);
    parts.push(at(x, y, `<rect class="lastmove${fresh.has(k) ? " landing" : ""}" x="2" y="2" width="${CW - 4}" height="${CH - 4}" rx="9" style="stroke:${seatColour(view, seat)}"/>`, `data-lastmove="${seat}" data-testid="lastmove-${x}_${y}"`));
  }
  const line = (cells) => cells.map(([x, y]) => `${x * CW + CW / 2},${y * CH + CH / 2}`).join(" ");
  // the ways offered by "Which way?" (each lit while its button is pointed at), else the
  // route to the hovered cell
  routes.forEach((r, i) => parts.push(`<polyline class="route choice-route ${wayClass(i)}" data-testid="route-${i}" points="${line(r)}"/>`));
  if (B.preview && !routes.length) parts.push(`<polyline class="route" points="${line(B.preview)}"/>`);
  if (B.coords) {
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++)
      parts.push(`<text class="coord" x="${x * CW + 6}" y="${y * CH + 18}">${x},${y}</text>`);
  }
  const hinted = last ? null : hintCell(B.hint);
  if (hinted) {
    const [x, y] = hinted;
    parts.push(at(x, y, `<rect class="hint" x="0" y="0" width="${CW}" height="${CH}" rx="11"/>`, `data-testid="hint-${x}_${y}"`));
  }
  if (B.cursor && !last) {
    const [x, y] = B.cursor;
    parts.push(at(x, y, `<rect class="cursor" x="1" y="1" width="${CW - 2}" height="${CH - 2}" rx="10"/>`));
  }
  return {svg: parts.join(""), bounds: [x0, y0, x1, y1]};
}

/* -- the camera ----------------------------------------------------------------------------- */
function box() { const el = $("#board-svg"); return el ? el.getBoundingClientRect() : null; }
function apply() {
  const g = $("#board-world");
  if (g && B.cam) g.setAttribute("transform", `matrix(${B.cam.s} 0 0 ${B.cam.s} ${B.cam.tx} ${B.cam.ty})`);
}
/** Fit cells [x0, y0, x1, y1] into the box (never closer than ``maxScale``). */
function fitCells(b, maxScale = MAX_SCALE) {
  const r = box();
  if (!r || !r.width || !r.height) return;
  const w = (b[2] - b[0] + 1) * CW, h = (b[3] - b[1] + 1) * CH;
  const room = r.width - CONTROLS_W;  // the zoom buttons stand on the right edge
  const s = Math.max(MIN_SCALE, Math.min(maxScale, room / w, r.height / h));
  B.cam = {s, tx: (room - w * s) / 2 - b[0] * CW * s, ty: (r.height - h * s) / 2 - b[1] * CH * s};
  apply();
}
export function fit() { B.moved = false; if (B.bounds) fitCells(B.bounds, 1.2); }
function zoomAt(factor, px, py) {
  if (!B.cam) return;
  const s = Math.max(MIN_SCALE, Math.min(MAX_SCALE, B.cam.s * factor));
  const k = s / B.cam.s;
  B.cam = {s, tx: px - (px - B.cam.tx) * k, ty: py - (py - B.cam.ty) * k};
  B.moved = true;
  apply();
}
export function zoom(factor) { const r = box(); if (r) zoomAt(factor, r.width / 2, r.height / 2); }
export function pan(dx, dy) { if (B.cam) { B.cam.tx += dx; B.cam.ty += dy; B.moved = true; apply(); } }
/** Is cell (x, y) wholly inside the box? */
function visible(x, y) {
  const r = box();
  if (!r || !B.cam) return false;
  const sx = x * CW * B.cam.s + B.cam.tx, sy = y * CH * B.cam.s + B.cam.ty;
  return sx >= 0 && sy >= 0 && sx + CW * B.cam.s <= r.width && sy + CH * B.cam.s <= r.height;
}
function bringIntoView(cells) {
  if (!cells.length || cells.every(([x, y]) => visible(x, y))) return;
  const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
  fitCells([Math.min(...xs) - 1, Math.min(...ys) - 1, Math.max(...xs) + 1, Math.max(...ys) + 1], B.cam ? Math.max(B.cam.s, 0.4) : 1);
}

/* -- the board's box, made once per table ------------------------------------------------------ */
export function boardShell() {
  return `<div class="treasures" id="board-treasures" aria-label="${esc(t("treasure"))}"></div>
    <div class="board-wrap" id="board-wrap">
      <svg id="board-svg" data-testid="board" tabindex="0" role="application" aria-label="${esc(t("board"))}"><g id="board-world"></g></svg>
      <div class="board-controls" role="toolbar" aria-label="${esc(t("board"))}">
        <button data-cam="in" title="${esc(t("zoom_in"))}" aria-label="${esc(t("zoom_in"))}">+</button>
        <button data-cam="out" title="${esc(t("zoom_out"))}" aria-label="${esc(t("zoom_out"))}">−</button>
        <button data-cam="fit" data-testid="fit" title="${esc(t("fit_board"))}" aria-label="${esc(t("fit_board"))}">⤢</button>
        <button data-cam="coords" data-testid="coords" title="${esc(t("coordinates"))}" aria-label="${esc(t("coordinates"))}" aria-pressed="${B.coords}">#</button>
      </div>
      <div class="legend" id="board-legend"></div>
    </div>`;
}

export function bindBoard() {
  const el = $("#board-svg");
  const pointers = new Map();
  let drag = null, pinch = null, dragged = false;
  el.addEventListener("pointerdown", (ev) => {
    pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
    if (pointers.size === 1) { drag = [ev.clientX, ev.clientY]; dragged = false; }
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = Math.hypot(a[0] - b[0], a[1] - b[1]);
    }
  });
  el.addEventListener("pointermove", (ev) => {
    if (!pointers.has(ev.pointerId)) { hover(ev); return; }
    pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
    if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      const r = box();
      zoomAt(d / pinch, (a[0] + b[0]) / 2 - r.left, (a[1] + b[1]) / 2 - r.top);
      pinch = d; dragged = true;
    } else if (drag) {
      const dx = ev.clientX - drag[0], dy = ev.clientY - drag[1];
      if (dragged || Math.abs(dx) + Math.abs(dy) > 6) {
        if (!dragged) el.setPointerCapture(ev.pointerId);
        dragged = true; pan(dx, dy); drag = [ev.clientX, ev.clientY];
      }
    }
  });
  const up = (ev) => { pointers.delete(ev.pointerId); if (pointers.size < 2) pinch = null; if (!pointers.size) drag = null; };
  el.addEventListener("pointerup", up);
  el.addEventListener("pointercancel", up);
  el.addEventListener("click", (ev) => { if (dragged) { dragged = false; return; } onBoardClick(ev); });
  el.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const r = box();
    zoomAt(Math.exp(-ev.deltaY * 0.0015), ev.clientX - r.left, ev.clientY - r.top);
  }, {passive: false});
  for (const b of document.querySelectorAll("[data-cam]")) {
    b.onclick = () => {
      const c = b.dataset.cam;
      if (c === "in") zoom(1.25);
      else if (c === "out") zoom(0.8);
      else if (c === "fit") fit();
      else { B.coords = !B.coords; localStorage.setItem("coords", B.coords ? "1" : "0"); b.setAttribute("aria-pressed", B.coords); render(); }
    };
  }
  new ResizeObserver(() => { if (!B.moved && B.bounds) fitCells(B.bounds, 1.2); }).observe(el);
}

function hover(ev) {
  const g = ev.target.closest && ev.target.closest("[data-target]");
  let route = null;
  if (g && S.msg && !S.selected) {
    const moves = cellTargets().get(g.dataset.cell) || [];
    const mv = moves.find((a) => a.kind === "Move");
    const me = S.msg.view.pawns && S.msg.view.pawns[S.msg.seat];
    if (mv && me) route = [me, ...mv.route];
  }
  if (JSON.stringify(route) !== JSON.stringify(B.preview)) { B.preview = route; render(); }
}

/* -- one frame ---------------------------------------------------------------------------------- */
export function renderBoard(ctx) {
  const {view, game} = ctx;
  const targets = ctx.myTurn ? cellTargets() : new Map();
  const marks = recentMoves(view);
  const fresh = new Set([...marks.keys()].filter((k) => !B.marked.has(k)));
  B.marked = new Set(marks.keys());
  const me = view.pawns && view.pawns[view.seat];
  const routes = me && S.choice ? S.choice.actions.filter((a) => a.kind === "Move").map((a) => [me, ...a.route]) : [];
  const world = worldSvg(view, game, {targets, marks, fresh, routes});
  $("#board-world").innerHTML = world.svg;
  const grew = !B.bounds || world.bounds.some((v, i) => v !== B.bounds[i]);
  B.bounds = world.bounds;
  if (!B.cam || (!B.moved && grew)) fitCells(B.bounds, 1.2);
  else apply();
  if (B.selected !== S.selected) {
    B.selected = S.selected;
    if (S.selected) bringIntoView([...targets.keys()].map((k) => k.split(",").map(Number)));
  }
  const legend = $("#board-legend");
  if (view.pawns) {
    legend.innerHTML = view.pawns.map((p, s) => `<span class="legend-item"><svg width="22" height="22" viewBox="0 0 30 30" aria-hidden="true">${seatDisc(view, s, 15, 15, 12)}</svg> ${esc(seatName(s))}${s === view.seat ? ` (${esc(t("you"))})` : ""}</span>`).join("");
  } else legend.innerHTML = "";
  // The Lost Mines: the treasures laid out this round, by slot, and who took each
  $("#board-treasures").innerHTML = (view.treasures || []).map(([slot, kind, holder]) =>
    `<span class="treasure ${esc(kind)}" data-testid="treasure-${slot}" title="${esc(`${t("treasure")} ${slot + 1}: ${tr("treasures", kind, kind)}${holder >= 0 ? ` (${seatName(holder)})` : ""}`)}">`
    + `${slot + 1} ${esc(tr("treasures", kind, kind))}${holder >= 0 ? ` <svg width="18" height="18" viewBox="0 0 30 30" aria-hidden="true">${seatDisc(view, holder, 15, 15, 12)}</svg>` : ""}</span>`).join("");
}

/** The colour class of the i-th way offered by "Which way?": its line on the board and the
 * swatch on its button (where nothing can be pointed at, as on a phone, the colour tells
 * the ways apart). */
export const WAY_COLOURS = 6;
export const wayClass = (i) => `way-${i % WAY_COLOURS}`;

/** Light one of the ways drawn for "Which way?" (its index among them) and dim the others;
 * null: all alike again.  Classes only, no new frame: the button pointed at keeps its focus. */
export function lightRoute(i) {
  for (const el of document.querySelectorAll("#board-world .choice-route")) {
    const mine = i !== null && el.dataset.testid === `route-${i}`;
    el.classList.toggle("lit", mine);
    el.classList.toggle("dim", i !== null && !mine);
  }
}

/* -- acting on a cell (mouse, touch or keyboard) ------------------------------------------------ */
export function actOnCell(x, y) {
  if (!S.msg) return;
  if (!S.msg.legal.length) { feedback(S.msg.table.status === "playing" ? t("not_your_turn") : t("no_moves")); return; }
  const sel = S.selected;
  const here = cellTargets().get(`${x},${y}`) || [];
  if (!sel) {
    const bribe = here.find((a) => a.kind === "Bribe");
    if (bribe) { send(bribe.text); return; }
    const moves = here.filter((a) => a.kind === "Move");
    if (moves.length === 1) { B.preview = null; send(moves[0].text); return; }
    if (moves.length > 1) { S.choice = {title: t("choose_route"), actions: moves}; render(); return; }
    feedback(t(S.msg.legal.some((a) => a.kind === "Move") ? "not_reachable" : "pick_card_first"));
    return;
  }
  const card = S.cards[S.msg.table.game].cards[sel];
  const joints = here.filter((a) => a.kind === "PlayOnJoint");
  if (joints.length) { S.choice = {title: t("choose_side"), actions: joints}; render(); return; }
  const exact = here.find((a) => a.kind === "PlacePath" || a.kind === "PlayOnCell");
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

function onBoardClick(ev) {
  const g = ev.target.closest("[data-cell]");
  if (!g) return;
  const [x, y] = g.dataset.cell.split(",").map(Number);
  B.cursor = [x, y];
  actOnCell(x, y);
}

/* -- the keyboard's cursor ------------------------------------------------------------------------- */
/** Move the cursor to the next legal cell in direction (dx, dy), else one cell that way. */
export function moveCursor(dx, dy) {
  const targets = [...cellTargets().keys()].map((k) => k.split(",").map(Number));
  const [cx, cy] = B.cursor || (targets[0] ? [targets[0][0] - dx, targets[0][1] - dy] : [0, 0]);
  let best = null, bestScore = Infinity;
  for (const [x, y] of targets) {
    const ahead = (x - cx) * dx + (y - cy) * dy;
    if (ahead <= 0) continue;
    const side = Math.abs((x - cx) * dy) + Math.abs((y - cy) * dx);
    const score = ahead + 2 * side;
    if (score < bestScore) { bestScore = score; best = [x, y]; }
  }
  B.cursor = best || [cx + dx, cy + dy];
  bringIntoView([B.cursor]);
  render();
}
export function cursorCell() { return B.cursor; }
export function actOnCursor() { if (B.cursor) actOnCell(B.cursor[0], B.cursor[1]); }
/** Put the cursor on the first legal cell (after a card is picked by keyboard). */
export function cursorToFirstTarget() {
  const first = [...cellTargets().keys()][0];
  if (first) { B.cursor = first.split(",").map(Number); bringIntoView([B.cursor]); }
}
