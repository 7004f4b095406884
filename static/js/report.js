// Reporting to the moderators: openReportDialog({targetType, targetId, label}) opens a
// <dialog> with a category and a reason and POSTs /api/reports/ (docs/api.md, "Reports"),
// then shows the answer in the dialog. Buttons with data-report-type / data-report-id /
// data-report-label open it on click; a #my-reports element lists the caller's reports.

import { el, get, post } from "./api.js";

const CATEGORIES = [["abuse", "Abuse"], ["cheating", "Cheating"], ["spam", "Spam"], ["other", "Other"]];
const MESSAGES = {
  already_reported: "You have already reported this; the moderators have it.",
  rate_limited: "You have sent many reports this hour; please try again later.",
  cannot_report_self: "You cannot report yourself.",
  not_found: "That no longer exists.",
  not_authenticated: "Sign in to report.",
};

export function openReportDialog({ targetType, targetId, label }) {
  const status = el("p", { class: "small muted", role: "status", "aria-live": "polite" });
  const category = el("select", { name: "category", required: true },
    CATEGORIES.map(([value, text]) => el("option", { value }, text)));
  const reason = el("textarea", { name: "reason", rows: 4, maxlength: 1000, required: true,
    placeholder: "What happened? Moderators read this." });
  const send = el("button", { type: "submit", class: "btn" }, "Send report");
  const cancel = el("button", { type: "button", class: "btn secondary", onclick: () => dialog.close() }, "Cancel");
  const form = el("form", { method: "dialog" },
    el("h2", {}, `Report ${label || targetType}`),
    el("label", {}, "Category ", category),
    el("label", { style: "display:block;margin-top:.5rem" }, "Reason", el("br"), reason),
    status,
    el("div", { class: "actions" }, cancel, send));
  const dialog = el("dialog", { "aria-label": `Report ${label || targetType}` }, form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    send.disabled = true;
    status.textContent = "Sending…";
    const res = await post("/api/reports/", {
      target_type: targetType, target_id: Number(targetId),
      category: category.value, reason: reason.value,
    });
    if (res.ok) {
      status.textContent = "Thank you: the moderators will look at it.";
      send.hidden = true;
      cancel.textContent = "Close";
      refreshMyReports();
    } else {
      const code = res.data && res.data.code;
      status.textContent = MESSAGES[code] || (res.data && res.data.detail) || "The report could not be sent.";
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
  if (!res.ok) { box.replaceChildren(el("p", { class: "empty" }, "Your reports are not available.")); return; }
  const rows = res.data.results || [];
  if (!rows.length) { box.replaceChildren(el("p", { class: "empty" }, "You have not reported anything.")); return; }
  box.replaceChildren(el("ul", { class: "game-list" }, rows.map((r) => el("li", {},
    el("div", { class: "meta", style: "flex:1" },
      el("span", { class: "title" }, `${r.target_type.replace("_", " ")} #${r.target_id} · ${r.category}`),
      el("span", { class: "small muted" }, `${new Date(r.created_at).toLocaleString()} · ${r.reason}`)),
    el("span", { class: `pill ${r.status}` }, r.status)))));
}

for (const button of document.querySelectorAll("[data-report-type]")) {
  button.addEventListener("click", () => openReportDialog({
    targetType: button.dataset.reportType, targetId: button.dataset.reportId,
    label: button.dataset.reportLabel,
  }));
}
refreshMyReports();
