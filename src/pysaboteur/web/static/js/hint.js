/* "Suggest a move": on my turn, at a table that allows hints, ask the server for the hard
 * bot's choice from my own view (POST /api/tables/{id}/hint) and show it: its card picked
 * in the hand and its cell ringed on the board, or the button of a move made off the board
 * marked; its reason in one line.  Cleared when the position changes (I moved). */
import {S, $, $$, esc, render} from "./store.js";
import {t, cardName} from "./i18n.js";
import {api, errorText, feedback, onState} from "./net.js";
import {setHint} from "./board.js";

// its own style sheet, brought in by the module itself (the page lists none for it)
if (!document.querySelector('link[href="/static/css/hint.css"]')) {
  const sheet = document.createElement("link");
  sheet.rel = "stylesheet"; sheet.href = "/static/css/hint.css";
  document.head.appendChild(sheet);
}

const H = {hint: null, asking: false};  // hint: the server's answer for S.msg.index

/** Forget the hint (a new position, another table). */
export function clearHint() {
  if (!H.hint && !H.asking) return;
  H.hint = null; H.asking = false;
  setHint(null);
}
onState((before, msg) => {
  if (!before || before.index !== msg.index || before.table.id !== msg.table.id) clearHint();
});

function allowed(ctx) {
  return ctx.myTurn && ctx.me !== null && ctx.table.hints !== false && ctx.table.status === "playing" && !!S.token;
}

function reasonText(h) {
  if (h.search && h.search.simulations) {
    const share = Math.round((100 * h.search.visits) / h.search.simulations);
    return t("hint_reason", {visits: h.search.visits, simulations: h.search.simulations, moves: h.search.moves, share});
  }
  if (h.reason === "the only legal move") return t("hint_only");
  return h.reason || "";
}

/** The tools bar's part: the button and, once answered, the suggestion's line. */
export function hintTools(ctx) {
  if (!allowed(ctx)) return "";
  const h = H.hint && H.hint.index === ctx.msg.index ? H.hint : null;
  const line = h ? `<span class="hint-line" data-testid="hint-reason" role="status"><b>${esc(t("hint_label"))}</b> ${h.card !== undefined && !h.cards ? `${esc(cardName(ctx.game, h.card))} ` : ""}<code>${esc(h.action)}</code>${reasonText(h) ? ` · ${esc(reasonText(h))}` : ""}</span>` : "";
  return `<button id="hint" class="hint-button" data-testid="hint" ${H.asking ? "disabled aria-busy=\"true\"" : ""}>${esc(H.asking ? t("hint_thinking") : t("suggest_move"))}</button>${line}`;
}

/** After the hand and tools are drawn: wire the button, mark what the hint points at. */
export function bindHint(ctx) {
  const button = $("#hint");
  if (button) button.onclick = () => ask(ctx.table.id, ctx.msg.index);
  const h = H.hint && H.hint.index === ctx.msg.index ? H.hint : null;
  if (!h) return;
  for (const el of $$("#tools [data-act], #prompt [data-act]")) if (el.dataset.act === h.text) el.classList.add("hinted");
  const cards = h.card !== undefined ? [h.card] : (h.kind === "Pass" || h.kind === "Discard") ? h.cards || [] : [];
  const left = [...cards];
  for (const el of $$("#hand [data-hand]")) {
    const i = left.indexOf(el.dataset.code);
    if (i >= 0) { el.classList.add("hinted"); left.splice(i, 1); }
  }
  if (h.kind === "Pass" || h.kind === "Discard") { const pm = $("#pass-mode"); if (pm) pm.classList.add("hinted"); }
}

async function ask(tableId, index) {
  if (H.asking) return;
  H.asking = true; render();
  try {
    const h = await api(`/api/tables/${tableId}/hint`, {method: "POST", headers: {"X-Seat-Token": S.token}});
    if (!S.msg || S.msg.index !== index || S.msg.table.id !== tableId || h.index !== index) return;  // moved on meanwhile
    H.hint = h;
    // pick its card (turned as the move has it), so that its cell is a target on the board
    if (h.card !== undefined && S.msg.view.hand && S.msg.view.hand.includes(h.card) && h.kind !== "Pass" && h.kind !== "Discard") {
      S.selected = h.card; S.rotated = !!h.rotated; S.passMode = false; S.choice = null;
    }
    setHint(h);
  } catch (err) {
    feedback(err.code === "rate-limited" ? t("hint_rate") : errorText(err));
  } finally {
    H.asking = false; render();
  }
}
