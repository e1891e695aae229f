/* The results table, and the box shown when a round or the match ends. */
import {S, $, esc, render} from "./store.js";
import {t, seatLabel} from "./i18n.js";
import {api, feedback, errorText} from "./net.js";

const E = {shown: -1};  // how many round results the player has seen
export function resetRoundEnd() { E.shown = -1; }

export function resultsTable(view) {
  const results = view.results || [];
  if (!results.length) return "";
  const scores = view.final_scores || view.scores;
  const rows = results.map((r) => `<tr><td>${r.round}</td>${(r.gold || []).map((g) => `<td>${g === null ? "?" : g}</td>`).join("")}</tr>`).join("");
  return `<table class="results" data-testid="results"><tr><th>${t("round")}</th>${Array.from({length: view.players}, (_, s) => `<th>${esc(seatLabel(s))}</th>`).join("")}</tr>${rows}
    ${scores ? `<tr class="total"><td>${t("total")}</td>${scores.map((g) => `<td>${g === null ? "?" : g}</td>`).join("")}</tr>` : ""}</table>`;
}

export function renderResults(ctx) {
  $("#results").innerHTML = resultsTable(ctx.view) || t("no_results");
}

export function renderRoundEnd(ctx) {
  const {view, table, me} = ctx;
  const box = $("#overlay");
  const results = view.results || [];
  const scores = view.final_scores || view.scores;
  const hostToken = localStorage.getItem(`host:${table.id}`);
  let banner = "";
  if (table.status === "finished") {
    const best = scores ? Math.max(...scores.filter((x) => x !== null)) : null;
    const winners = scores ? scores.map((g, s) => (g === best ? seatLabel(s) : null)).filter(Boolean) : [];
    const rematchBtn = table.rematch_next ? `<button class="primary" data-testid="goto-rematch" id="goto-rematch">${t("go_rematch")}</button>`
      : (me !== null || hostToken) ? `<button class="primary" data-testid="rematch" id="rematch">${t("rematch")}</button>` : "";
    banner = `<div class="banner" data-testid="match-over"><h2>${t("match_over")}</h2><p>${winners.length ? t("winner", {names: winners.join(", ")}) : ""}</p>${resultsTable(view)}${rematchBtn}</div>`;
  } else if (E.shown >= 0 && results.length > E.shown) {
    const r = results[results.length - 1];
    banner = `<div class="banner" data-testid="round-over"><h2>${t("round_over", {n: r.round})}</h2>${resultsTable(view)}<button id="close-banner" data-testid="close-banner">${t("continue")}</button></div>`;
  }
  if (E.shown < 0) E.shown = results.length;
  box.innerHTML = banner;
  const on = (id, fn) => { const el = $(id); if (el) el.onclick = fn; };
  on("#close-banner", () => { E.shown = results.length; render(); });
  on("#rematch", async () => {
    try {
      const r = await api(`/api/tables/${table.id}/rematch`, {method: "POST", headers: {"X-Seat-Token": S.token || hostToken}});
      if (hostToken) localStorage.setItem(`host:${r.id}`, hostToken);
      location.hash = `#/t/${r.id}/${S.token || ""}`;
    } catch (err) { feedback(errorText(err)); }
  });
  on("#goto-rematch", () => {
    if (hostToken) localStorage.setItem(`host:${table.rematch_next}`, hostToken);
    location.hash = `#/t/${table.rematch_next}/${S.token || ""}`;
  });
}
