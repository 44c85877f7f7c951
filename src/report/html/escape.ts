/**
 * Everything on the page that comes from a report (skill names, prompts, agent output, file contents, messages) is
 * untrusted text: it reaches the HTML only through `esc`, which leaves no character that could open markup or leave
 * an attribute. The page's Content-Security-Policy forbids every script but its own, as a second wall.
 */
const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};

export function esc(value: unknown): string {
  return String(value ?? "").replace(/[&<>"'`]/g, (c) => ENTITIES[c]!);
}

/** A tag's attributes from a record; `undefined` and `false` leave the attribute out, `true` writes it bare. */
export function attrs(a: Record<string, string | number | boolean | undefined>): string {
  let out = "";
  for (const [k, v] of Object.entries(a)) {
    if (v === undefined || v === false) continue;
    out += v === true ? ` ${k}` : ` ${k}="${esc(v)}"`;
  }
  return out;
}

/** `<tag attrs>inner</tag>`; `inner` is HTML the caller built (escape text with `esc` first). */
export function el(
  tag: string,
  a: Record<string, string | number | boolean | undefined>,
  inner = "",
): string {
  return `<${tag}${attrs(a)}>${inner}</${tag}>`;
}

/** Text cut to `max` characters (with an ellipsis), escaped. */
export function clip(value: unknown, max: number): string {
  const s = String(value ?? "");
  return esc(s.length > max ? `${s.slice(0, max - 1)}…` : s);
}
