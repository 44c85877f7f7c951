/**
 * The page's only script (inline, allowed by the policy's hash): fills a transcript in when its `<details>` opens
 * (bodies wait as JSON, parsed on first use, so a report of thousands of trials opens fast), and applies the
 * filters and the search. It never loads anything: the policy forbids every connection.
 */
export const CLIENT_SCRIPT = `(() => {
  "use strict";
  const byId = (id) => document.getElementById(id);
  let store, plain;
  const bodies = () => (store ??= JSON.parse(byId("sg-transcripts").textContent || "{}"));
  const fill = (root) => {
    for (const s of root.querySelectorAll(".slot:not([data-filled])")) {
      s.innerHTML = bodies()[s.dataset.slot] ?? "<p>This transcript is not in the report.</p>";
      s.dataset.filled = "1";
    }
  };
  document.addEventListener("toggle", (e) => {
    if (e.target instanceof HTMLDetailsElement && e.target.open) fill(e.target);
  }, true);
  const items = Array.from(document.querySelectorAll(".fi"));
  const text = (el) => {
    let t = el.textContent;
    for (const s of el.querySelectorAll(".slot:not([data-filled])")) {
      plain ??= new Map();
      let p = plain.get(s.dataset.slot);
      if (p === undefined) {
        const d = document.createElement("div");
        d.innerHTML = bodies()[s.dataset.slot] ?? "";
        p = d.textContent;
        plain.set(s.dataset.slot, p);
      }
      t += " " + p;
    }
    return t.toLowerCase();
  };
  const apply = () => {
    const skill = byId("f-skill").value, status = byId("f-status").value, battery = byId("f-battery").value;
    const q = byId("f-search").value.trim().toLowerCase();
    let shown = 0;
    for (const el of items) {
      const ok = (!skill || el.dataset.skill === skill) &&
        (!status || (el.dataset.status || "").split(" ").includes(status)) &&
        (!battery || el.dataset.battery === battery) &&
        (!q || text(el).includes(q));
      el.hidden = !ok;
      if (ok) shown++;
    }
    byId("f-count").textContent = shown + " of " + items.length + " items shown";
  };
  let timer;
  const form = byId("filters");
  form.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(apply, 120); });
  form.addEventListener("change", apply);
  form.addEventListener("submit", (e) => { e.preventDefault(); apply(); });
  byId("f-reset").addEventListener("click", () => { form.reset(); apply(); });
  byId("f-count").textContent = items.length + " items";
})();`;
