/**
 * The page's only script (inline, allowed by the policy's hash): fills a transcript or a long list in when its
 * `<details>` opens (bodies wait in a compressed store, opened on first use, so a report of thousands of trials
 * opens fast), and applies the filters and the search. It never loads anything: the policy forbids every connection.
 */
export const CLIENT_SCRIPT = `(() => {
  "use strict";
  const byId = (id) => document.getElementById(id);
  const bodies = {};
  const opened = new Map();
  let plain;
  // One chunk of the store (gzip-compressed JSON in base64), opened once, on first use.
  const openChunk = async (el) => {
    const bytes = Uint8Array.from(atob(el.textContent.trim()), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    Object.assign(bodies, JSON.parse(await new Response(stream).text()));
  };
  const need = (chunks) => Promise.all([...new Set(chunks)].map((i) => {
    if (!opened.has(i)) opened.set(i, openChunk(document.querySelector('script.sg-store[data-chunk="' + i + '"]')));
    return opened.get(i);
  }));
  const needAll = () => need([...document.querySelectorAll("script.sg-store")].map((el) => el.dataset.chunk));
  // The slots that belong to this <details> itself (not those of the closed ones inside it).
  const own = (root) => [...root.querySelectorAll(".slot:not([data-filled])")].filter((s) => s.closest("details") === root);
  // On a narrow screen a table's rows stack: each cell is labelled with its column's header (the style shows it).
  const label = (root) => {
    for (const t of root.querySelectorAll("table:not(.confusion)")) {
      const heads = [...(t.tHead?.rows[0]?.cells ?? [])].map((c) => c.textContent.trim());
      if (!heads.length) continue;
      t.classList.add("stack");
      for (const body of t.tBodies)
        for (const r of body.rows) [...r.cells].forEach((c, i) => { if (heads[i]) c.dataset.label = heads[i]; });
    }
  };
  label(document);
  const fillNow = (root) => {
    for (const s of own(root)) {
      s.innerHTML = bodies[s.dataset.slot] ?? "<p>This part is not in the report.</p>";
      s.dataset.filled = "1";
      label(s);
    }
  };
  const fill = async (root) => { await need(own(root).map((s) => s.dataset.slot.split(".")[0])); fillNow(root); };
  document.addEventListener("toggle", (e) => {
    if (e.target instanceof HTMLDetailsElement && e.target.open) fill(e.target);
  }, true);
  // Filters and search see every item: the long lists waiting in the store are built first (once).
  let items;
  const allItems = () => {
    if (!items) {
      for (const d of document.querySelectorAll("details.lazy-list")) fillNow(d);
      items = Array.from(document.querySelectorAll(".fi"));
    }
    return items;
  };
  const text = (el) => {
    let t = el.textContent;
    for (const s of el.querySelectorAll(".slot:not([data-filled])")) {
      plain ??= new Map();
      let p = plain.get(s.dataset.slot);
      if (p === undefined) {
        const d = document.createElement("div");
        d.innerHTML = bodies[s.dataset.slot] ?? "";
        p = d.textContent;
        plain.set(s.dataset.slot, p);
      }
      t += " " + p;
    }
    return t.toLowerCase();
  };
  const apply = async () => {
    await needAll();
    const skill = byId("f-skill").value, status = byId("f-status").value, battery = byId("f-battery").value;
    const q = byId("f-search").value.trim().toLowerCase();
    let shown = 0;
    const all = allItems();
    for (const el of all) {
      const ok = (!skill || el.dataset.skill === skill) &&
        (!status || (el.dataset.status || "").split(" ").includes(status)) &&
        (!battery || el.dataset.battery === battery) &&
        (!q || text(el).includes(q));
      el.hidden = !ok;
      if (ok) shown++;
    }
    byId("f-count").textContent = shown + " of " + all.length + " items shown";
    // A filter opens the long lists that hold what it shows.
    if (skill || status || battery || q)
      for (const d of document.querySelectorAll("details.lazy-list")) d.open = d.querySelector(".fi:not([hidden])") !== null;
  };
  let timer;
  const form = byId("filters");
  form.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(apply, 120); });
  form.addEventListener("change", apply);
  form.addEventListener("submit", (e) => { e.preventDefault(); apply(); });
  byId("f-reset").addEventListener("click", () => { form.reset(); apply(); });
  byId("f-count").textContent = document.querySelectorAll(".fi").length + " items" + (document.querySelector("details.lazy-list") ? " (and the long lists' rows)" : "");
})();`;
