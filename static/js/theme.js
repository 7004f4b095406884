// The reader's theme (light, dark, or the system's) and seat palette (standard or
// colour-blind). Loaded in <head> before anything is drawn (not deferred), so <html>
// carries `data-theme` and `data-palette` from the first paint: no flash of the other
// theme. The choice is remembered in localStorage and made in the header's Display menu
// (templates/_display.html); site.css and the palette variables base.html writes do the
// rest, nothing is redrawn (docs/web.md, "Colours and themes").
(() => {
  const root = document.documentElement;
  const THEMES = ["system", "light", "dark"];
  const PALETTES = ["standard", "colour-blind"];
  const system = typeof matchMedia === "function" ? matchMedia("(prefers-color-scheme: dark)") : null;

  const read = (key, allowed) => {
    let value = null;
    try { value = localStorage.getItem(key); } catch (e) { /* no storage: the defaults */ }
    return allowed.includes(value) ? value : allowed[0];
  };
  const write = (key, value) => {
    try { localStorage.setItem(key, value); } catch (e) { /* no storage: this page only */ }
  };

  function apply() {
    const choice = read("theme", THEMES);
    root.dataset.theme = choice === "system" ? (system && system.matches ? "dark" : "light") : choice;
    const palette = read("palette", PALETTES);
    if (palette === PALETTES[0]) delete root.dataset.palette;
    else root.dataset.palette = palette;
    const form = document.getElementById("display-menu");
    if (!form) return;
    for (const input of form.querySelectorAll('input[name="display-theme"]')) input.checked = input.value === choice;
    const box = form.querySelector('input[name="display-palette"]');
    if (box) box.checked = palette === box.value;
  }

  function wire() {
    const menu = document.getElementById("display-menu");
    if (!menu) return;
    menu.addEventListener("change", (e) => {
      const input = e.target;
      if (input.name === "display-theme") write("theme", input.value);
      else if (input.name === "display-palette") write("palette", input.checked ? input.value : PALETTES[0]);
      apply();
    });
    // A menu, not a page section: Escape or a click elsewhere closes it.
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && menu.open) { menu.open = false; menu.querySelector("summary").focus(); }
    });
    document.addEventListener("click", (e) => { if (menu.open && !menu.contains(e.target)) menu.open = false; });
    apply();
  }

  apply();
  if (system) system.addEventListener("change", apply);
  window.addEventListener("storage", (e) => { if (e.key === "theme" || e.key === "palette") apply(); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();
})();
