// Reporting to the moderators: openReportDialog({targetType, targetId, label}) opens a
// <dialog> with a category and a reason and POSTs /api/reports/ (docs/api.md, "Reports"),
// then shows the answer in the dialog. Buttons with data-report-type / data-report-id /
// data-report-label open it on click; a #my-reports element lists the caller's reports.

import { el, get, post } from "./api.js";
import { formatDateTime, gettext, interpolate, pgettext, relativeTime } from "./i18n.js";

const CATEGORIES = {
  abuse: () => pgettext("report category", "Abuse"), cheating: () => pgettext("report category", "Cheating"),
  spam: () => pgettext("report category", "Spam"), other: () => pgettext("report category", "Other"),
};
const STATUSES = {
  open: () => pgettext("report status", "open"), resolved: () => pgettext("report status", "resolved"),
  dismissed: () => pgettext("report status", "dismissed"),
};
const TARGETS = {
  chat_message: () => gettext("chat message"), user: () => gettext("user"), game: () => gettext("game"),
};
const MESSAGES = {
  already_reported: () => gettext("You have already reported this; the moderators have it."),
  rate_limited: () => gettext("You have sent many reports this hour; please try again later."),
  cannot_report_self: () => gettext("You cannot report yourself."),
  not_found: () => gettext("That no longer exists."),
  not_authenticated: () => gettext("Sign in to report."),
};
const word = (table, code) => (table[code] ? table[code]() : code);

export function openReportDialog({ targetType, targetId, label }) {
  const status = el("p", { class: "small muted", role: "status", "aria-live": "polite" });
  const category = el("select", { name: "category", required: true },
    Object.keys(CATEGORIES).map((value) => el("option", { value }, word(CATEGORIES, value))));
  const reason = el("textarea", { name: "reason", rows: 4, maxlength: 1000, required: true,
    placeholder: gettext("What happened? Moderators read this.") });
  const send = el("button", { type: "submit", class: "btn" }, gettext("Send report"));
  const cancel = el("button", { type: "button", class: "btn secondary", onclick: () => dialog.close() }, gettext("Cancel"));
  const title = interpolate(gettext("Report %(what)s"), { what: label || word(TARGETS, targetType) });
  const form = el("form", { method: "dialog" },
    el("h2", {}, title),
    el("label", {}, `${gettext("Category")} `, category),
    el("label", { style: "display:block;margin-top:.5rem" }, gettext("Reason"), el("br"), reason),
    status,
    el("div", { class: "actions" }, cancel, send));
  const dialog = el("dialog", { "aria-label": title }, form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    send.disabled = true;
    status.textContent = gettext("Sending…");
    const res = await post("/api/reports/", {
      target_type: targetType, target_id: Number(targetId),
      category: category.value, reason: reason.value,
    });
    if (res.ok) {
      status.textContent = gettext("Thank you: the moderators will look at it.");
      send.hidden = true;
      cancel.textContent = gettext("Close");
      refreshMyReports();
    } else {
      const code = res.data && res.data.code;
      status.textContent = (MESSAGES[code] && MESSAGES[code]()) || (res.data && res.data.detail) || gettext("The report could not be sent.");
      send.disabled = false;
    }
  });
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  reason.focus();
  return dialog;
}

export async function refreshMyReports() {
  const box = document.getElementById("my-reports");
  if (!box) return;
  const res = await get("/api/reports/");
  if (!res.ok) { box.replaceChildren(el("p", { class: "empty" }, gettext("Your reports are not available."))); return; }
  const rows = res.data.results || [];
  if (!rows.length) { box.replaceChildren(el("p", { class: "empty" }, gettext("You have not reported anything."))); return; }
  box.replaceChildren(el("ul", { class: "game-list" }, rows.map((r) => el("li", {},
    el("div", { class: "meta", style: "flex:1" },
      el("span", { class: "title" }, `${word(TARGETS, r.target_type)} #${r.target_id} · ${word(CATEGORIES, r.category)}`),
      el("span", { class: "small muted" },
        el("time", { datetime: r.created_at, title: formatDateTime(r.created_at) }, relativeTime(r.created_at)), ` · ${r.reason}`)),
    el("span", { class: `pill ${r.status}` }, word(STATUSES, r.status))))));
}

for (const button of document.querySelectorAll("[data-report-type]")) {
  button.addEventListener("click", () => openReportDialog({
    targetType: button.dataset.reportType, targetId: button.dataset.reportId,
    label: button.dataset.reportLabel,
  }));
}
refreshMyReports();
