/* The log of the match as this seat saw it, written as sentences in the page's language.
 *
 * view.log holds [seat, text] in the move notation (engine/actions.py), as this seat saw
 * it: another seat's pass arrives as `pass N`, its discard as `discard N -CODE` (the
 * cards stay face down; nothing here tries to name them).  `parseMove` reads one text,
 * `moveSentence` writes it in the "log" group of i18n/<lang>.log.json; a text it does not
 * know stays as it was.  A divider marks each round's start: view.round_start for this
 * round, and the starts this browser saw earlier (kept per table in localStorage, so that
 * the Duel, whose view has no round_start, gets them too).
 */
import {S, $, esc} from "./store.js";
import {t, tr, tg, cardName, seatName} from "./i18n.js";

const N = "(-?\\d+),(-?\\d+)";
const RE = {
  bribe: new RegExp(`^bribe@${N}$`),
  steal: /^steal>(\d+)$/,
  joint: new RegExp(`^(\\S+?)@${N}:([NESW])$`),
  at: new RegExp(`^(\\S+?)@${N}(r?)$`),
  to: /^(\S+?)>(\d+)(?::(\S+))?$/,
  treasure: /^(\S+?)#(\d+)$/,
  move: /^move((?: -?\d+,-?\d+)+)$/,
  take: /^take (\d+)$/,
  pass: /^pass (.+)$/,
  discard: /^discard (.+?) -(\S+)$/,
};
const WORDS = {"end": {kind: "end"}, "orient": {kind: "orient", rotated: false}, "orient r": {kind: "orient", rotated: true},
  "stay": {kind: "stay"}, "propose end": {kind: "propose"}, "accept": {kind: "vote", accept: true}, "decline": {kind: "vote", accept: false}};

/** One move's notation as {kind, ...}, or null for a text it does not know. */
export function parseMove(text) {
  const s = String(text || "").trim();
  if (WORDS[s]) return {...WORDS[s]};
  let m;
  if ((m = RE.bribe.exec(s))) return {kind: "bribe", x: +m[1], y: +m[2]};
  if ((m = RE.steal.exec(s))) return {kind: "steal", target: +m[1]};
  if ((m = RE.joint.exec(s))) return {kind: "joint", card: m[1], x: +m[2], y: +m[3], side: m[4]};
  if ((m = RE.at.exec(s))) return {kind: "at", card: m[1], x: +m[2], y: +m[3], rotated: m[4] === "r"};
  if ((m = RE.to.exec(s))) return {kind: "player", card: m[1], target: +m[2], tool: m[3] || null};
  if ((m = RE.treasure.exec(s))) return {kind: "treasure", card: m[1], slot: +m[2]};
  if ((m = RE.move.exec(s))) return {kind: "move", route: m[1].trim().split(" ").map((c) => c.split(",").map(Number))};
  if ((m = RE.take.exec(s))) return {kind: "take", slot: +m[1]};
  if ((m = RE.discard.exec(s))) {
    const cards = m[1].split(/\s+/);
    return /^\d+$/.test(m[1]) ? {kind: "discard", count: +m[1], cards: null, remove: m[2]} : {kind: "discard", count: cards.length, cards, remove: m[2]};
  }
  if ((m = RE.pass.exec(s))) {
    const cards = m[1].split(/\s+/);
    return /^\d+$/.test(m[1]) ? {kind: "pass", count: +m[1], cards: null} : {kind: "pass", count: cards.length, cards};
  }
  return null;
}

const has = (key) => S.tr.log && S.tr.log[key] !== undefined;
const cell = (x, y) => `${x},${y}`;

/** The sentence's template key and its variables, or null (then the raw text is shown). */
function phrase(game, seat, move, me, index, view) {
  const you = me !== null && me !== undefined && seat === me;
  const card = move.card !== undefined ? (S.cards[game] && S.cards[game].cards[move.card]) : null;
  const vars = {};
  if (move.card !== undefined) vars.card = cardName(game, move.card);
  // a key for the actor: "<key>_you" when it is me
  const own = (key) => (you && has(`${key}_you`) ? `${key}_you` : key);
  // a key for an actor and a target seat: _you_self, _you, _to_you, _self or the plain key
  const aimed = (key, target) => {
    vars.target = seatName(target);
    const self = target === seat;
    const tries = you ? (self ? ["_you_self", "_you"] : ["_you"])
      : target === me ? ["_to_you"] : self ? ["_self"] : [];
    for (const suffix of tries) if (has(key + suffix)) return key + suffix;
    return key;
  };
  const counted = (key, n) => (n === 1 && has(own(key) + "_1") ? own(key) + "_1" : own(key));
  switch (move.kind) {
    case "end": return [own("end"), vars];
    case "stay": return [own("stay"), vars];
    case "propose": return [own("propose"), vars];
    case "vote": return [own(move.accept ? "accept" : "decline"), vars];
    case "orient": {
      const base = game === "lost-mines" ? "orient_mine" : "orient";
      return [own(move.rotated ? `${base}_r` : base), vars];
    }
    case "bribe": vars.cell = cell(move.x, move.y); return [own("bribe"), vars];
    case "steal": return [aimed("steal", move.target), vars];
    case "take": {
      vars.n = move.slot + 1;
      const laid = view && index >= (view.round_start || 0) && (view.treasures || []).find((x) => x[0] === move.slot);
      if (laid && has(own("take_typed"))) { vars.type = tr("mines", laid[1], laid[1]); return [own("take_typed"), vars]; }
      return [own("take"), vars];
    }
    case "move": {
      const last = move.route[move.route.length - 1];
      vars.n = move.route.length; vars.cell = cell(last[0], last[1]);
      return [counted("move", move.route.length), vars];
    }
    case "pass":
      vars.n = move.count;
      // another seat's pass stays face down: only its size is told
      if (move.cards && you) { vars.cards = move.cards.map((c) => cardName(game, c)).join(", "); return [own("pass_cards"), vars]; }
      return [counted("pass", move.count), vars];
    case "discard":
      vars.n = move.count; vars.remove = cardName(game, move.remove);
      if (move.cards && you) { vars.cards = move.cards.map((c) => cardName(game, c)).join(", "); return [own("discard_cards"), vars]; }
      return [own("discard"), vars];
    case "joint": {
      const [x2, y2] = move.side === "E" ? [move.x + 1, move.y] : move.side === "S" ? [move.x, move.y + 1]
        : move.side === "W" ? [move.x - 1, move.y] : [move.x, move.y - 1];
      vars.cell = cell(move.x, move.y); vars.cell2 = cell(x2, y2);
      const effect = card && card.effect;
      return [own(effect === "trap" ? "trap" : effect === "troll" ? "troll" : "joint"), vars];
    }
    case "treasure":
      vars.n = move.slot + 1;
      return [own(card && card.effect === "info" ? "info_treasure" : "on_treasure"), vars];
    case "at": {
      vars.cell = cell(move.x, move.y);
      if (card && card.category === "action") {
        const key = {rockfall: "rockfall", map: "map", key: "key", storm: "storm", info: "info_mine"}[card.effect];
        if (card.effect === "tool") { vars.obstacle = tr("tools", (card.tools || [])[0] || ""); return [own("tool"), vars]; }
        return [own(key || "cell"), vars];
      }
      if (!card && !S.cards[game]) return null;
      return [own(move.rotated ? "path_r" : "path"), vars];
    }
    case "player": {
      if (!card) return [aimed("on_player", move.target), vars];
      const tools = move.tool ? [move.tool] : (card.tools || []);
      vars.tool = tools.map((x) => tr("tools", x)).join(" / ");
      const key = {break: "break", repair: "repair", theft: "theft", "hands-off": "hands_off", "swap-hand": "swap_hand",
        inspection: "inspection", "swap-hats": "swap_hats", trapped: "trapped", free: "free", info: "info_dwarf"}[card.effect];
      return [aimed(key || "on_player", move.target), vars];
    }
    default: return null;
  }
}

function fill(template, vars, html) {
  let out = html ? esc(template) : template;
  for (const [k, v] of Object.entries(vars)) {
    const value = html ? (k === "who" || k === "target" ? `<b>${esc(v)}</b>` : esc(v)) : String(v);
    out = out.replaceAll(`{${k}}`, value);
  }
  return out;
}

/** One log entry (or a move about to be sent) as a sentence: seat `seat` made `text`, seen
 * by `me` (null: a spectator).  Unknown texts come back as they are. */
export function moveSentence(game, seat, text, me, {html = false, index = -1, view = null} = {}) {
  let got = null;
  try {
    const move = parseMove(text);
    got = move && phrase(game, seat, move, me, index, view);
  } catch (err) {
    console.error(err);
    got = null;
  }
  if (!got || !has(got[0])) {
    const raw = `${seatName(seat)}: ${text}`;
    return html ? `<b>${esc(seatName(seat))}</b>: <code>${esc(text)}</code>` : raw;
  }
  const [key, vars] = got;
  vars.who = seatName(seat);
  return fill(tr("log", key), vars, html);
}

/** An illegal move's reason as the server sends it ({code, params}: the engine's one table
 * of reasons, served as the "reasons" group) in the page's language; "" when unknown. */
const CARD_PARAMS = new Set(["card", "cards"]);  // a card code, or codes joined by ", "

/** The engine's reason in the page's words: its code's text, the words among its
 * parameters translated, the cards named as the page names them (in ``game``). */
export function reasonText(reason, game) {
  const table = S.tr.reasons || {};
  const text = reason && table.texts && table.texts[reason.code];
  if (!text) return "";
  const words = table.words || {};
  let out = text;
  for (const [k, v] of Object.entries(reason.params || {})) {
    const word = words[k] && words[k][v];
    let shown = word !== undefined ? word : String(v);
    if (word === undefined && game && CARD_PARAMS.has(k)) shown = String(v).split(", ").map((code) => cardName(game, code)).join(", ");
    out = out.replaceAll(`{${k}}`, shown);
  }
  return out;
}

/** A refusal from the server, in the page's words: the code's text and the move as the
 * log would write it ("illegal": "<notation> is not a legal move now"), then the engine's
 * reason in the page's language. */
export function refusalText(err, sent) {
  const m = /^(.+?) is not a legal move now\.?$/.exec((err && err.message) || "");
  const text = m ? m[1] : sent;
  const msg = S.msg;
  let move = "";
  if (text && parseMove(text) && msg && msg.seat !== null && msg.seat !== undefined) move = moveSentence(msg.table.game, msg.seat, text, msg.seat);
  else if (text) move = text;
  if (err.code === "bad-notation") return move ? tg("errors", "bad_notation_move", {move}) : tr("errors", "bad-notation");
  const told = move ? tg("errors", "illegal_move", {move}) : tr("errors", "illegal", t("illegal"));
  const reason = reasonText(err.reason, msg && msg.table ? msg.table.game : null);
  return reason ? tg("errors", "illegal_because", {told, reason}) : told;
}

// -- where the rounds begin -------------------------------------------------------------
function readStarts(id) {
  try {
    const got = JSON.parse(localStorage.getItem(`log-rounds:${id}`) || "{}");
    return got && typeof got === "object" ? got : {};
  } catch { return {}; }
}
const seen = {id: null, round: null};

/** round number -> index in view.log of its first move, as far as known. */
export function roundStarts(table, view) {
  const starts = readStarts(table.id);
  let changed = false;
  const put = (round, at) => { if (starts[round] !== at) { starts[round] = at; changed = true; } };
  put(1, 0);
  if (typeof view.round_start === "number") put(view.round, view.round_start);
  else if (seen.id === table.id && seen.round === view.round - 1 && starts[view.round] === undefined) put(view.round, view.log.length);
  seen.id = table.id; seen.round = view.round;
  // a round cannot begin past the log's end, nor before an earlier round
  for (const r of Object.keys(starts)) if (starts[r] > view.log.length || +r > view.round) { delete starts[r]; changed = true; }
  if (changed) { try { localStorage.setItem(`log-rounds:${table.id}`, JSON.stringify(starts)); } catch { /* full */ } }
  return starts;
}

export function renderLog(ctx) {
  const {view, table, game, me} = ctx;
  const list = $("#log");
  if (!list) return;
  const starts = roundStarts(table, view);
  const byIndex = new Map(Object.entries(starts).map(([r, i]) => [i, +r]));
  const rounds = view.rounds || (view.results || []).length + 1;
  const items = view.log.map(([s, m], i) => {
    const r = byIndex.get(i);
    const divider = r !== undefined && (rounds > 1 || r > 1);
    const label = divider ? ` data-round="${esc(`${t("round")} ${r}`)}"` : "";
    return `<li value="${i + 1}"${divider ? ` class="round-start"` : ""}${label} data-raw="${esc(m)}">${moveSentence(game, s, m, me, {html: true, index: i, view})}</li>`;
  }).join("");
  // drawn again only when it changed; new moves are appended (what a screen reader reads)
  const key = `${table.id}/${S.lang}/${me}`;
  const last = list._drawn || {key: null, html: ""};
  if (last.key === key && last.html === items) return;
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 30;
  if (last.key === key && last.html && items.startsWith(last.html)) list.insertAdjacentHTML("beforeend", items.slice(last.html.length));
  else list.innerHTML = items;
  list._drawn = {key, html: items};
  if (atEnd || !list.dataset.seen) list.scrollTop = list.scrollHeight;
  list.dataset.seen = "1";
}
