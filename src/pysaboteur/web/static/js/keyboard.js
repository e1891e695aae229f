/* Playing by keyboard alone: 1-9 / 0 pick a card, arrows move over the legal cells,
 * R turns a path card, Enter plays on the cursor's cell, P passes, Esc puts back,
 * + / - / F zoom and fit.  Keys typed into a form field are left alone. */
import {S, $, render} from "./store.js";
import {pickCard, rotate, passMode} from "./hand.js";
import {moveCursor, actOnCursor, zoom, fit} from "./board.js";
import {roundEndOpen, closeRoundEnd} from "./roundend.js";

const ARROWS = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};

export function onKey(ev) {
  if (!S.msg || S.route.page !== "table" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const tag = (ev.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea") return;
  const k = ev.key;
  if (roundEndOpen()) { if (k === "Escape") { closeRoundEnd(); ev.preventDefault(); } return; }  // a round's end is up
  if (/^[0-9]$/.test(k)) {
    pickCard(k === "0" ? 9 : Number(k) - 1, true);
    ev.preventDefault(); $("#board-svg").focus({preventScroll: true}); return;
  }
  if (k === "Enter" && S.passMode) {
    const confirm = $("[data-testid=confirm-pass]:not([disabled])");
    if (confirm) { confirm.click(); ev.preventDefault(); }
    return;
  }
  if (ARROWS[k] && (tag !== "button" || ev.target.closest("#board-wrap"))) {
    moveCursor(...ARROWS[k]); ev.preventDefault(); $("#board-svg").focus({preventScroll: true}); return;
  }
  if (k === "Enter" && ev.target.closest && (ev.target.closest("#board-wrap") || ev.target === document.body)) { actOnCursor(); ev.preventDefault(); return; }
  if (k === "r" || k === "R") { rotate(); return; }
  if (k === "p" || k === "P") { passMode(!S.passMode); return; }
  if (k === "Escape") { S.selected = null; S.choice = null; S.passMode = false; render(); return; }
  if (k === "+" || k === "=") { zoom(1.25); return; }
  if (k === "-") { zoom(0.8); return; }
  if (k === "f" || k === "F") { fit(); }
}
