/* Translations: the server merges i18n/<lang>.json with every i18n/<lang>.<module>.json;
 * `t` reads the "ui" group, `tr` any group, `tg` any group with {placeholders}. */
import {S, $, render} from "./store.js";

export const LANGUAGES = ["en", "de", "nl"];

function fill(s, vars) {
  for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, v);
  return s;
}
export function t(key, vars = {}) {
  return fill((S.tr.ui && S.tr.ui[key]) || key, vars);
}
export function tr(group, key, fallback) {
  const g = S.tr[group] || {};
  return g[key] !== undefined ? g[key] : (fallback !== undefined ? fallback : key);
}
export function tg(group, key, vars = {}) {
  return fill(tr(group, key), vars);
}

export async function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  S.tr = await (await fetch(`/api/i18n/${lang}`)).json();
  S.lang = lang;
  localStorage.setItem("lang", lang);
  document.documentElement.lang = lang;
  $("#lang").value = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  render();
}

/** A tile's open edges ("NES", "N,E,S" for a dead end) with the language's compass letters
 * (German N O S W, Dutch N O Z W). */
export function compass(tile) {
  return String(tile).replace(/[NESW]/g, (c) => tr("compass", c, c));
}

/** A card's name in the page's language, built from the card's data where no name is given. */
export function cardName(game, code) {
  if (!code) return "";
  const named = S.tr.cards && S.tr.cards[code];
  if (named) return named;
  const card = S.cards[game] && S.cards[game].cards[code];
  if (!card) return code;
  const tools = (card.tools || []).map((x) => tr("tools", x)).join(" + ");
  if (card.category === "action") {
    const pattern = S.tr.effects && S.tr.effects[card.effect];
    return pattern ? pattern.replaceAll("{tools}", tools) : card.name;
  }
  if (card.tile !== undefined) {
    const f = card.features || {};
    const parts = [];
    if (f.door) parts.push(tr("features", "door").replace("{colour}", tr("colours", f.door)));
    if (f.ladder) parts.push(tr("features", "ladder").replace("{colour}", tr("colours", f.ladder)));
    if (f.troll) parts.push(tr("features", "troll"));
    if (f.crystals) parts.push(tr("features", "crystals"));
    if (f.obstacle) parts.push(tr("tools", f.obstacle));
    if (f.rock) parts.push(tr("features", "rock"));
    if (f.campfire) parts.push(tr("features", "campfire"));
    if (f.gold) parts.push(tr("features", "gold").replace("{n}", f.gold));
    const shape = S.tr.shapes && S.tr.shapes[card.tile];
    let base = tr("categories", card.category, card.category);
    if (card.category === "start" && code.includes("-")) base += " " + tr("colours", code.split("-").pop());
    if (card.category === "mine") base += " " + tr("mines", code.replace("mine-", ""), code.replace("mine-", ""));
    const head = parts.length ? parts.join(", ") : base;
    return `${head}${parts.length && card.category !== "path" ? " (" + base + ")" : ""} ${shape || compass(card.tile)}`;
  }
  return tr("categories", card.category, card.name) + (card.value ? ` ${card.value}` : "");
}

/** A seat's name: the one its player chose, else a translated default ("Spieler 2", "Bot 3"). */
export function seatName(seat) {
  const info = S.msg && S.msg.table.seats[seat];
  if (info && info.name) return info.name;
  if (info && info.kind === "bot") return t("default_bot", {n: seat + 1});
  return t("default_player", {n: seat + 1});
}
/** A seat's name with "(you)" for the viewer's own seat. */
export function seatLabel(seat) {
  const name = seatName(seat);
  return S.msg && S.msg.seat === seat ? `${name} (${t("you")})` : name;
}
