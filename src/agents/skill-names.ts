import type { InstalledSkill, ToolCall } from "../model/index.js";

/**
 * The run's names for the skills an agent reports (activated, registered). A plugin's skill (`plugin:name`) is
 * installed as a project skill, whose harness reports it as `name` (Claude Code also strips a `plugin:` prefix
 * from what its Skill tool names): a reported name that is no installed skill's is mapped back to the one
 * installed plugin skill with that name. When two installed plugins share it, it stays as reported (no guess).
 */
export function qualifySkillNames(names: readonly string[], installed: readonly InstalledSkill[]): string[] {
  const exact = new Set(installed.map((s) => s.name));
  const byLocal = new Map<string, string[]>();
  for (const s of installed) {
    const colon = s.name.indexOf(":");
    if (colon < 0) continue;
    const local = s.name.slice(colon + 1);
    byLocal.set(local, [...(byLocal.get(local) ?? []), s.name]);
  }
  return [
    ...new Set(
      names.map((n) => {
        if (exact.has(n)) return n;
        const plugin = byLocal.get(n);
        return plugin?.length === 1 ? plugin[0]! : n;
      }),
    ),
  ];
}

/** The skill a tool call loads: a `Skill` call naming it, or a read of `…/skills/<name>/SKILL.md`. */
export function activatedSkill(call: ToolCall): string | undefined {
  const input = (call.input ?? {}) as Record<string, unknown>;
  if (call.name === "Skill") {
    const named = String(input.skill ?? input.command ?? input.name ?? "").replace(/^\//, "");
    return named ? named.replace(/^[^:]*:/, "") : undefined;
  }
  const path = String(input.file_path ?? input.path ?? input.command ?? "");
  const m = /skills[\\/]+([^\\/\s"']+)[\\/]+SKILL\.md/i.exec(path);
  return m?.[1];
}
