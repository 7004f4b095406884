// Forms marked data-retry-busy (the sign-up page) are sent with fetch so that a busy
// server's 503 with Retry-After (accounts/hashers.py: no hash slot within a few seconds)
// is waited out and the form sent again, saying so, instead of showing a dead end. Any
// other answer is shown as the server sent it: a redirect is followed, a page with form
// errors replaces this one's content (the handler is delegated, so it keeps working).
// A 429 is a limit, not a busy server: its page (which names the limit and when it
// lifts) is shown and nothing is sent again by itself.

import { formatNumber, gettext, interpolate } from "./i18n.js";

const RETRY_STATUSES = new Set([503]);

// Seconds to wait from a Retry-After header (seconds or an HTTP date), or null.
export function retryAfterSeconds(header) {
  if (!header) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const when = Date.parse(text);
  return Number.isNaN(when) ? null : Math.max(0, (when - Date.now()) / 1000);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function statusLine(form) {
  let line = form.querySelector(".busy-status");
  if (!line) {
    line = document.createElement("p");
    line.className = "notice warn busy-status";
    line.setAttribute("role", "status");
    // Beside the button just pressed, where the eye is.
    const button = form.querySelector("[type=submit]");
    if (button) button.before(line);
    else form.append(line);
  }
  line.hidden = false;
  line.scrollIntoView({ block: "nearest" });
  return line;
}

// Waits `seconds` (plus up to one of jitter, so a crowd does not return all at once),
// counting down on the page.
async function waitOut(form, seconds) {
  const line = statusLine(form);
  const until = Date.now() + (seconds + Math.random()) * 1000;
  for (let left = Math.ceil((until - Date.now()) / 1000); left > 0;
       left = Math.ceil((until - Date.now()) / 1000)) {
    line.textContent = interpolate(gettext("The server is busy; trying again in %(seconds)s s…"), { seconds: formatNumber(left) });
    await sleep(Math.min(1000, until - Date.now()));
  }
  line.textContent = gettext("The server is busy; trying again now…");
}

function show(html) {
  const page = new DOMParser().parseFromString(html, "text/html");
  const fresh = page.getElementById("main");
  const main = document.getElementById("main");
  if (!fresh || !main) {
    document.open();
    document.write(html);
    document.close();
    return;
  }
  main.replaceWith(document.importNode(fresh, true));
  document.title = page.title;
}

async function send(form) {
  const button = form.querySelector("[type=submit]");
  if (button) button.disabled = true;
  try {
    for (;;) {
      const res = await fetch(form.action || location.href, {
        method: "POST", body: new FormData(form), credentials: "same-origin",
        headers: { Accept: "text/html" },
      });
      const wait = RETRY_STATUSES.has(res.status)
        ? retryAfterSeconds(res.headers.get("Retry-After")) : null;
      if (wait !== null) {
        await waitOut(form, wait);
        continue;
      }
      if (res.redirected) {
        location.assign(res.url);
        return;
      }
      show(await res.text());
      return;
    }
  } catch {
    // The server is unreachable: let the browser send the form and show what happens.
    HTMLFormElement.prototype.submit.call(form);
  } finally {
    if (button) button.disabled = false;
  }
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.matches("form[data-retry-busy]")) return;
  event.preventDefault();
  send(form);
});
