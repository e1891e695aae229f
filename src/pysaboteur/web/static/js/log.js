/* The log of the match as this seat saw it (view.log: other seats' face-down cards hidden). */
import {$, esc} from "./store.js";
import {seatLabel} from "./i18n.js";

export function renderLog(ctx) {
  const {view} = ctx;
  const list = $("#log");
  const items = view.log.map(([s, m], i) => `<li value="${i + 1}"><b>${esc(seatLabel(s))}</b> ${esc(m)}</li>`).join("");
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 30;
  list.innerHTML = items;
  if (atEnd || !list.dataset.seen) list.scrollTop = list.scrollHeight;
  list.dataset.seen = "1";
}
