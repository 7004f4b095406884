// Words and numbers in the reader's language (docs/web.md, "Translating the pages' words").
// Every page loads Django's JavaScript catalogue (/jsi18n/, the djangojs domain) before its
// modules; these wrap it, so a page whose catalogue failed to load still reads in English.
// Numbers, dates and relative times go through Intl in the page's language (<html lang>).
//
// Sentences are whole: `interpolate(gettext("%(seat)s moved to %(cell)s"), {seat, cell})`,
// never pieces glued together, so a translator sees (and may reorder) the whole thing.
// makemessages finds the calls by their names: keep the literal inside gettext(...).

// Looked up on each call, not once: words asked for after a late catalogue still translate.
const catalogue = () => globalThis.django;

export function gettext(msgid) {
  return catalogue() ? catalogue().gettext(msgid) : msgid;
}

export function ngettext(singular, plural, count) {
  if (catalogue()) return catalogue().ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

// The same words meaning different things ("easy" a level, "open" a seat) get a context.
export function pgettext(context, msgid) {
  return catalogue() ? catalogue().pgettext(context, msgid) : msgid;
}

export function npgettext(context, singular, plural, count) {
  if (catalogue()) return catalogue().npgettext(context, singular, plural, count);
  return count === 1 ? singular : plural;
}

// "%(name)s" placeholders filled from `values`, as they are: a quantity the reader reads
// as a number goes through formatNumber first (ids and plies, as "#1234", need not).
export function interpolate(format, values) {
  return format.replace(/%\((\w+)\)s/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

// The page's language (Django sets <html lang> to the active one), else the browser's.
export function locale() {
  const lang = document.documentElement.lang;
  if (lang) {
    try { return Intl.getCanonicalLocales(lang)[0]; } catch { /* not a tag: the browser's */ }
  }
  return undefined;
}

const cache = new Map();
function cached(kind, options, make) {
  const k = `${kind}|${locale()}|${JSON.stringify(options)}`;
  if (!cache.has(k)) cache.set(k, make(locale(), options));
  return cache.get(k);
}

export function formatNumber(n, options = {}) {
  return cached("n", options, (l, o) => new Intl.NumberFormat(l, o)).format(n);
}

// "Blue, Green and Red": a list in the reader's language.
export function formatList(items) {
  return cached("l", {}, (l) => new Intl.ListFormat(l, { type: "conjunction" })).format(items);
}

const asDate = (when) => (when instanceof Date ? when : new Date(when));

// A date and time ("5 de mar. de 2025 14:03"); options as Intl.DateTimeFormat's.
export function formatDateTime(when, options = { dateStyle: "medium", timeStyle: "short" }) {
  return cached("d", options, (l, o) => new Intl.DateTimeFormat(l, o)).format(asDate(when));
}

export const formatTime = (when) => formatDateTime(when, { hour: "2-digit", minute: "2-digit" });
export const formatDate = (when) => formatDateTime(when, { dateStyle: "medium" });

const UNITS = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400],
  ["hour", 3600], ["minute", 60], ["second", 1]];

// "3 minutes ago", "in 2 hours", "now": the largest unit that fits, relative to `now`.
export function relativeTime(when, now = Date.now()) {
  const seconds = (asDate(when).getTime() - now) / 1000;
  const rtf = cached("r", {}, (l) => new Intl.RelativeTimeFormat(l, { numeric: "auto" }));
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === "second") {
      const value = Math.round(seconds / size);
      return rtf.format(unit === "second" && Math.abs(value) < 10 ? 0 : value, unit);
    }
  }
  return "";
}
