/* Seat colours and marks, shared by the board, the player panels and the legend.
 * A seat's colour always comes with its letter, so seats stay apart without colour. */

const NAMED = {blue: "#2f6fdb", green: "#2e9e44", yellow: "#e0b400", red: "#d23c3c"};
const PALETTE = ["#e0b400", "#2f6fdb", "#d23c3c", "#2e9e44", "#8a4fd1", "#e8821e",
                 "#15a3a3", "#c2409a", "#6b8e23", "#9a9a9a", "#4b5bd6", "#a0522d"];

/** The colour of a seat: the game's own colour where it has one (the Duel), else a palette. */
export function seatColour(view, seat) {
  const named = view && view.colours && NAMED[view.colours[seat]];
  return named || PALETTE[seat % PALETTE.length];
}
/** The seat's letter: A, B, C ... (drawn on pawns and markers, shown on the panels). */
export const seatLetter = (seat) => String.fromCharCode(65 + seat);

/** A small round chip in the seat's colour with its letter, as HTML. */
export function seatChip(view, seat) {
  return `<span class="chip" style="background:${seatColour(view, seat)}" aria-hidden="true">${seatLetter(seat)}</span>`;
}
/** The same chip inside an SVG, centred on (cx, cy). */
export function seatDisc(view, seat, cx, cy, r, stroke = "#000") {
  return `<g class="disc"><circle cx="${cx}" cy="${cy}" r="${r}" fill="${seatColour(view, seat)}" stroke="${stroke}" stroke-width="${Math.max(2, r / 5)}"/>`
    + `<text x="${cx}" y="${cy}" dy="0.35em" text-anchor="middle" font-size="${r * 1.2}" font-weight="bold" fill="#fff" stroke="#000" stroke-width="${r / 10}" paint-order="stroke">${seatLetter(seat)}</text></g>`;
}
