// A leaderboard page: GET /api/leaderboard/{kind}/?page=N, rendered as a table.
// Says "not available" when the server has no ratings yet (404).

import { el, get } from "./api.js";
import { formatNumber, gettext } from "./i18n.js";

const box = document.getElementById("leaderboard");
const kind = box.dataset.kind;
const $ = (id) => document.getElementById(id);
let page = 1;

async function load() {
  const res = await get(`/api/leaderboard/${encodeURIComponent(kind)}/?page=${page}`);
  if (res.status === 404 && page === 1) {
    $("lb-status").textContent = gettext("Ratings are not available on this server yet.");
    return;
  }
  if (!res.ok) { $("lb-status").textContent = gettext("The leaderboard could not be loaded."); return; }
  const rows = res.data.results || res.data;
  $("lb-rows").replaceChildren(...rows.map((r) => el("tr", {},
    el("td", { class: "rank" }, formatNumber(r.rank)),
    el("td", {}, el("a", { href: `/users/${encodeURIComponent(r.username)}/` }, r.username)),
    el("td", {}, formatNumber(Math.round(r.rating))),
    el("td", {}, formatNumber(r.games)))));
  $("lb-table").hidden = rows.length === 0;
  $("lb-status").textContent = rows.length ? "" : (provisionalCount
    ? gettext("No established players yet: everyone who has played is still provisional (below).")
    : gettext("Nobody has played a ranked game of this kind yet."));
  $("lb-status").hidden = rows.length > 0;
  $("lb-prev").hidden = !res.data.previous;
  $("lb-next").hidden = !res.data.next;
}

let provisionalCount = 0;

// Players still provisional, apart and unranked.
async function loadProvisional() {
  const res = await get(`/api/leaderboard/${encodeURIComponent(kind)}/provisional/`);
  const rows = res.ok && Array.isArray(res.data) ? res.data : [];
  provisionalCount = rows.length;
  $("prov-rows").replaceChildren(...rows.map((r) => el("tr", {},
    el("td", {}, el("a", { href: `/users/${encodeURIComponent(r.username)}/` }, r.username)),
    el("td", {}, `${formatNumber(Math.round(r.rating))}?`),
    el("td", {}, formatNumber(r.games)))));
  $("provisional").hidden = rows.length === 0;
}

$("lb-prev").addEventListener("click", () => { page -= 1; loadProvisional().then(load); });
$("lb-next").addEventListener("click", () => { page += 1; load(); });
// The provisional list first: with nobody established yet, the empty table says that
// everyone who played is still provisional, not that nobody has played.
loadProvisional().then(load);
