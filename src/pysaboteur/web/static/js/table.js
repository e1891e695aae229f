/* The table page: one layout made when the table opens, each part drawn by its module
 * on every frame from the last state message. */
import {S, $, esc, tableContext} from "./store.js";
import {t, tr} from "./i18n.js";
import {boardShell, bindBoard, renderBoard} from "./board.js";
import {renderHand} from "./hand.js";
import {renderStatus, renderPlayers} from "./panels.js";
import {renderLog} from "./log.js";
import {renderResults, renderRoundEnd} from "./roundend.js";
import {renderInvite} from "./lobby.js";

let built = null;  // the route (table id and language) the layout was made for

function layout(app) {
  app.innerHTML = `
    <div class="table-page" id="table-page">
      <div id="invite"></div>
      <div id="status" class="status" data-testid="status" role="status" aria-live="polite"></div>
      <div class="table-main">
        <div class="play">
          <section class="board-area" aria-label="${esc(t("board"))}">${boardShell()}</section>
          <div id="prompt"></div>
          <div class="hand" id="hand" data-testid="hand" aria-label="${esc(t("your_hand"))}"></div>
          <div class="tools" id="tools"></div>
        </div>
        <aside class="side">
          <div id="players" class="players" aria-label="${esc(t("players"))}"></div>
          <details class="panel" open><summary>${t("results")}</summary><div id="results"></div></details>
          <details class="panel log" open><summary>${t("log")}</summary><ol id="log" data-testid="log" aria-live="polite"></ol></details>
        </aside>
      </div>
      <div id="overlay"></div>
    </div>`;
  bindBoard();
}

export function forgetLayout() { built = null; }

export function renderTable(app) {
  if (S.fatal) { built = null; app.innerHTML = `<section class="panel"><p class="error">${esc(S.fatal)}</p><a href="#/">${t("back_to_lobby")}</a></section>`; return; }
  const ctx = tableContext();
  if (!ctx) { built = null; app.innerHTML = `<p>${t("connecting")}</p>`; return; }
  // a card picked earlier means nothing in a phase without cards (The Lost Mines' move)
  if (S.selected && !ctx.legal.some((a) => a.card !== undefined)) S.selected = null;
  const key = `${ctx.table.id}/${S.lang}`;
  if (built !== key || !$("#table-page")) { layout(app); built = key; }
  $("#subtitle").textContent = tr("games", ctx.game, ctx.table.title);
  renderInvite($("#invite"), ctx);
  renderStatus(ctx);
  renderPlayers(ctx);
  renderBoard(ctx);
  renderHand(ctx);
  renderResults(ctx);
  renderLog(ctx);
  renderRoundEnd(ctx);
}
