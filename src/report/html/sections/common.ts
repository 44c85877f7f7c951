import type { RenderContext } from "../context.js";

/** One part of the page: a new section is one of these, listed in `SECTIONS` (../index.ts). */
export interface Section {
  id: string;
  /** Its heading and its entry in the page's navigation. */
  title: string;
  /** Its HTML (inside the `<section>`), or undefined when the report has nothing for it. */
  render(ctx: RenderContext): string | undefined;
}

/** What the page's filters read on an item: its skill, its statuses, its battery. */
export interface FilterKeys {
  skill: string;
  /** `failing`, `passing`, `new`, `error` … (any that apply). */
  status: string[];
  battery: "discriminator" | "trigger" | "other";
}

export function filterAttrs(k: FilterKeys): Record<string, string> {
  return { "data-skill": k.skill, "data-status": k.status.join(" "), "data-battery": k.battery };
}

export function batteryOfMode(mode: string): FilterKeys["battery"] {
  return mode === "trigger" ? "trigger" : mode === "skill" || mode === "baseline" ? "discriminator" : "other";
}
