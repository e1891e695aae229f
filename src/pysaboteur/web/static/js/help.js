/* Help where it is needed: each game's rules in short and the keys (a dialog opened from
 * the header's "Rules" button), what a card does (`cardHelp`, for titles and tooltips, and
 * a line shown when a card is tapped), and a notice when my turn comes while the tab is in
 * the background (the title, and an optional beep: off unless the header's toggle is on).
 *
 * Words: groups "help", "rules" and "cardhelp" of i18n/<lang>.help.json.
 */
import {S, $, esc} from "./store.js";
import {tr, tg, cardName} from "./i18n.js";
import {onState} from "./net.js";

const H = (key, vars = {}) => tg("help", key, vars);
export const GAMES = ["classic", "expansion", "duel", "solo", "lost-mines"];
const SECTIONS = ["goal", "turn", "cards", "end", "scoring"];
const KEYS = ["key_pick", "key_arrows", "key_rotate", "key_enter", "key_pass", "key_escape", "key_zoom", "key_help"];

// -- what a card does --------------------------------------------------------------------
const has = (group, key) => S.tr[group] && S.tr[group][key] !== undefined;
/** The first key of "cardhelp" that exists: the game's own (`<key>_<game>`) first. */
function pick(game, ...keys) {
  const duelish = game === "solo" ? ["solo", "duel"] : [game];
  for (const key of keys) {
    for (const g of duelish) if (has("cardhelp", `${key}_${g}`)) return `${key}_${g}`;
    if (has("cardhelp", key)) return key;
  }
  return null;
}
const deadEnd = (tile) => String(tile).split(",").every((seg) => seg.length === 1);

/** One line on what card `code` of `game` does, in the page's language ("" if unknown). */
export function cardHelp(game, code) {
  const card = S.cards[game] && S.cards[game].cards[code];
  if (!card) {
    const id = String(code || "").split("-").pop();  // an identity without its card (Lost Mines)
    return has("cardhelp", `dwarf_${id}`) ? tr("cardhelp", `dwarf_${id}`) : "";
  }
  const tools = (card.tools || []).map((x) => tr("tools", x));
  const vars = {tools: tools.join(" / "), n: card.value, colour: ""};
  let key = null;
  const f = card.features || {};
  if (card.category === "action") key = pick(game, card.effect);
  else if (card.category === "start") key = pick(game, "start");
  else if (card.category === "goal") key = pick(game, "goal");
  else if (card.category === "mine") key = pick(game, "mine");
  else if (card.category === "gold") key = pick(game, "nugget");
  else if (card.category === "treasure") { key = pick(game, "treasure"); vars.type = tr("mines", code.split("-")[0], code.split("-")[0]); }
  else if (card.category === "role" || card.category === "dwarf") {
    if (code.startsWith("digger-")) { key = pick(game, "role_team"); vars.colour = tr("colours", code.split("-")[1]); }
    else if (card.category === "dwarf") key = pick(game, `dwarf_${code.split("-").pop()}`);
    else key = pick(game, `role_${code}`);
  } else if (card.category === "path") {
    if (f.door) { key = pick(game, "door"); vars.colour = tr("colours", f.door); }
    else if (f.ladder) { key = pick(game, f.ladder === "any" ? "ladder" : "ladder_duel", "ladder"); vars.colour = tr("colours", f.ladder); }
    else if (f.troll) key = pick(game, "troll_path");
    else if (f.crystals) key = pick(game, "crystal");
    else if (f.gold) key = pick(game, "gold_path");
    else if (f.obstacle) {
      key = pick(game, "obstacle");
      vars.obstacle = tr("tools", f.obstacle);
      const tool = Object.values(S.cards[game].cards).find((c) => c.effect === "tool" && (c.tools || []).includes(f.obstacle));
      vars.tool = tool ? cardName(game, tool.code) : vars.obstacle;
    } else if (f.rock) key = pick(game, "rock");
    else if (f.campfire) key = pick(game, "campfire");
    else if (deadEnd(card.tile)) key = pick(game, "dead_end");
    else if (String(card.tile).includes(",")) key = pick(game, "two_paths");
    else key = pick(game, "path");
  }
  return key ? tg("cardhelp", key, vars) : "";
}

/** A card's name and what it does, for a title attribute. */
export function cardTitle(game, code) {
  const name = cardName(game, code);
  const what = cardHelp(game, code);
  return what ? `${name} – ${what}` : name;
}

// a card of the hand tapped on a touch screen (no hover there): its line for a while, until
// it is tapped, the next move arrives or another card is tapped
let tipTimer = null, lastPointer = "mouse";
function tip(text) {
  let el = $("#card-help");
  if (!el) {
    el = document.createElement("div");
    el.id = "card-help"; el.setAttribute("role", "status"); el.dataset.testid = "card-help";
    el.onclick = () => tip("");
    document.body.appendChild(el);
  }
  el.textContent = text;
  el.className = text ? "show" : "";
  clearTimeout(tipTimer);
  if (text) tipTimer = setTimeout(() => { el.className = ""; }, 6000);
}
function onTap(ev) {
  const game = S.msg && S.msg.table.game;
  if (!game || !ev.target.closest || lastPointer !== "touch") return;
  const el = ev.target.closest("[data-hand]");
  if (!el || !el.dataset.code) return;
  const code = el.dataset.code;
  // after the hand's own handler: told when the card is picked, not when it is put back
  setTimeout(() => tip(S.selected === code || S.passMode ? cardTitle(game, code) : ""), 0);
}
/** Show what a card does in the tap line (also for tests and for keyboard users). */
export function showCardHelp(game, code) { tip(cardTitle(game, code)); }

// -- the rules dialog ----------------------------------------------------------------------
let opener = null;
function section(key) {
  const text = tr("rules", key, "");
  if (!text) return "";
  const lines = text.split("\n");
  if (lines.length === 1) return `<p>${esc(text)}</p>`;
  // a first line ending in ":" leads the list; else every line is an item
  const head = lines[0].endsWith(":") ? `<p>${esc(lines.shift())}</p>` : "";
  return `${head}<ul>${lines.map((x) => `<li>${esc(x)}</li>`).join("")}</ul>`;
}
function body(game) {
  const rules = SECTIONS.map((s) => {
    const html = section(`${game}_${s}`);
    return html ? `<section><h3>${esc(H(`h_${s}`))}</h3>${html}</section>` : "";
  }).join("");
  const keys = `<section class="help-keys"><h3>${esc(H("h_keys"))}</h3><ul>${KEYS.map((k) => `<li>${esc(H(k))}</li>`).join("")}</ul></section>`;
  return rules + keys;
}
function currentGame() {
  return (S.msg && S.msg.table && S.msg.table.game) || (S.route && S.route.page === "lobby" && ($("#new-game") || {}).value) || "classic";
}
function fillDialog(dlg, game) {
  const g = GAMES.includes(game) ? game : "classic";
  dlg.innerHTML = `
    <div class="help-head">
      <h2 id="help-title">${esc(H("rules_of", {game: tr("games", g, g)}))}</h2>
      <button type="button" class="help-close" data-testid="help-close" aria-label="${esc(H("close"))}" title="${esc(H("close"))}">✕</button>
    </div>
    <label class="help-game">${esc(H("choose_game"))}
      <select data-testid="help-game">${GAMES.map((x) => `<option value="${x}"${x === g ? " selected" : ""}>${esc(tr("games", x, x))}</option>`).join("")}</select>
    </label>
    <div class="help-body" data-testid="help-body" data-game="${g}">${body(g)}</div>`;
  dlg.querySelector(".help-close").onclick = () => dlg.close();
  dlg.querySelector("select").onchange = (ev) => { fillDialog(dlg, ev.target.value); dlg.querySelector("select").focus(); };
}

/** Open the rules of `game` (default: the table's game) in a modal dialog. */
export function openHelp(game) {
  let dlg = $("#help-dialog");
  if (!dlg) {
    dlg = document.createElement("dialog");
    dlg.id = "help-dialog"; dlg.dataset.testid = "help-dialog";
    dlg.setAttribute("aria-labelledby", "help-title");
    // keys typed in the dialog are the dialog's: the table's keys (1-9, R, P, ...) stay off
    dlg.addEventListener("keydown", (ev) => { if (ev.key !== "Escape") ev.stopPropagation(); });
    dlg.addEventListener("click", (ev) => { if (ev.target === dlg) dlg.close(); });  // the backdrop
    dlg.addEventListener("close", () => { if (opener && opener.isConnected) opener.focus(); opener = null; });
    document.body.appendChild(dlg);
  }
  opener = document.activeElement;
  fillDialog(dlg, game || currentGame());
  if (!dlg.open) dlg.showModal();
  dlg.querySelector(".help-close").focus();
}

// -- my turn while the tab is in the background ----------------------------------------------
const SOUND_KEY = "turn-sound";
const notice = {on: false, base: null};
let audio = null;
const soundOn = () => localStorage.getItem(SOUND_KEY) === "1";

function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.type = "sine"; osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.15, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start(); osc.stop(audio.currentTime + 0.4);
  } catch { /* no sound here */ }
}
function markTitle() {
  const mark = H("your_turn_title");
  if (!notice.on) { notice.base = document.title; notice.on = true; }
  document.title = `${mark} ${notice.base}`;
}
function clearTitle() {
  if (notice.on) { document.title = notice.base; notice.on = false; }
}
/** Called with every state message: my turn has just begun (and the tab is hidden). */
export function turnNotice(before, msg) {
  const mine = msg && msg.legal && msg.legal.length > 0 && msg.table.status === "playing";
  const was = before && before.table && before.table.id === msg.table.id && before.legal && before.legal.length > 0;
  if (!mine) return;
  if (was && before.view.current_player === msg.view.current_player && before.view.round === msg.view.round) return;
  if (!document.hidden) return;
  markTitle();
  if (soundOn()) beep();
}

// -- the header: Rules and the sound toggle ----------------------------------------------------
function drawHeader() {
  const top = $("#top");
  if (!top) return;
  let box = $("#help-tools");
  if (!box) {
    box = document.createElement("span");
    box.id = "help-tools";
    top.insertBefore(box, $("#lang-label"));
    box.innerHTML = `<button type="button" id="rules-button" data-testid="rules-button" aria-haspopup="dialog" aria-keyshortcuts="?"></button>
      <button type="button" id="sound-toggle" data-testid="sound-toggle"></button>`;
    $("#rules-button").onclick = () => openHelp();
    $("#sound-toggle").onclick = () => {
      localStorage.setItem(SOUND_KEY, soundOn() ? "0" : "1");
      if (soundOn()) beep();  // a first sound, started by a click (the browser allows it then)
      drawHeader();
    };
  }
  $("#rules-button").textContent = `? ${H("rules")}`;
  const sound = $("#sound-toggle");
  sound.textContent = `♪ ${H(soundOn() ? "sound_short_on" : "sound_short_off")}`;
  sound.setAttribute("aria-pressed", String(soundOn()));
  sound.setAttribute("aria-label", H(soundOn() ? "sound_on" : "sound_off"));
  sound.title = H(soundOn() ? "sound_on" : "sound_off");
  const dlg = $("#help-dialog");
  if (dlg && dlg.open && dlg.dataset.lang !== S.lang) { dlg.dataset.lang = S.lang; fillDialog(dlg, dlg.querySelector("[data-game]").dataset.game); }
}

function install() {
  const css = document.createElement("link");
  css.rel = "stylesheet"; css.href = "/static/css/help.css";
  document.head.appendChild(css);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) clearTitle(); });
  window.addEventListener("focus", clearTitle);
  document.addEventListener("pointerdown", (ev) => { lastPointer = ev.pointerType || "mouse"; }, true);
  document.addEventListener("click", onTap, true);
  document.addEventListener("keydown", (ev) => {  // "?" opens the rules (outside form fields)
    const tag = (ev.target.tagName || "").toLowerCase();
    if (ev.key !== "?" || ev.ctrlKey || ev.metaKey || ev.altKey || ["input", "select", "textarea"].includes(tag)) return;
    if ($("#help-dialog") && $("#help-dialog").open) return;
    ev.preventDefault(); openHelp();
  });
  onState(turnNotice);
  onState((before, msg) => { if (before && before.index !== msg.index) tip(""); });
  // the header follows the language: drawn again whenever setLanguage writes the page's
  // fixed words (the home link's among them), even when the language stays the same
  const home = $("#home");
  if (home) new MutationObserver(drawHeader).observe(home, {childList: true, characterData: true, subtree: true});
  drawHeader();
}
install();
