import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Skill, SkillChange } from "../model/index.js";
import { agentNameOf, withRunName } from "./copies.js";
import { touchedBy } from "./touched.js";

/** What a PR did to one skill, and which batteries that calls for. */
export interface SkillChangeInfo {
  name: string;
  change: SkillChange;
  head?: Skill;
  base?: Skill;
  /** Finer flags behind `change`. */
  descriptionChanged: boolean;
  /**
   * Frontmatter keys a router reads that differ from base (`description`, `when_to_use`,
   * `disable-model-invocation`, `paths`, …: every key but `ROUTER_BLIND_KEYS`), in the head file's order.
   */
  routingKeysChanged: string[];
  bodyChanged: boolean;
  suiteChanged: boolean;
  /** For renames: the base name. */
  renamedFrom?: string;
  batteries: { discriminator: boolean; trigger: boolean };
  /** Why the batteries were chosen, for the report. */
  reason: string;
}

/** A repository side: its skills and where its files are. */
export interface RepoSide {
  dir: string;
  skills: Skill[];
}

/**
 * Classifies every skill as new, body edit, description-only edit, suite-only edit, rename, deletion or
 * unchanged by comparing what the agent sees (content hash), the description, and the suite files.
 * `changedFiles` (from the PR API or git), when given, narrows "changed" to skills with a changed file.
 */
export function classifyChanges(
  head: RepoSide,
  base: RepoSide | undefined,
  changedFiles?: string[],
): SkillChangeInfo[] {
  const out: SkillChangeInfo[] = [];
  const touches = touchedBy(changedFiles);
  if (!base) {
    for (const s of head.skills)
      out.push({
        name: s.name,
        change: "sweep",
        head: s,
        descriptionChanged: false,
        routingKeysChanged: [],
        bodyChanged: false,
        suiteChanged: false,
        batteries: { discriminator: true, trigger: true },
        reason: "sweep: every battery",
      });
    return out;
  }
  const headNames = new Set(head.skills.map((s) => s.name));
  const paired = pairByNameOrPath(head.skills, base.skills);
  /** Base records paired with a head skill, by name, path or rename. */
  const used = new Set<Skill>([...paired.values()].map((p) => p.from));
  for (const s of head.skills) {
    let b = paired.get(s)?.record;
    let renamedFrom: string | undefined;
    if (!b) {
      // A rename keeps the content (or at least the body) and loses the old name.
      const candidate = base.skills.find(
        (x) =>
          !headNames.has(x.name) &&
          !used.has(x) &&
          (x.body === s.body || x.folder.contentHash === s.folder.contentHash),
      );
      if (candidate) {
        b = candidate;
        renamedFrom = candidate.name;
        used.add(candidate);
      }
    }
    if (!b) {
      out.push({
        name: s.name,
        change: "new",
        head: s,
        descriptionChanged: true,
        routingKeysChanged: Object.keys(s.frontmatter).filter((k) => !ROUTER_BLIND_KEYS.has(k)),
        bodyChanged: true,
        suiteChanged: true,
        batteries: { discriminator: true, trigger: true },
        reason: "new skill: every battery",
      });
      continue;
    }
    const descriptionChanged = b.description !== s.description;
    const routingKeysChanged = routingKeyChanges(b.frontmatter, s.frontmatter);
    // A record the base reused from head shares its folder: equal without reading it.
    const bodyChanged =
      b.folder !== s.folder &&
      b.folder.contentHash !== s.folder.contentHash &&
      !(descriptionChanged && sameExceptDescription(b, s));
    // One suite record on both sides: discovery reused head's (the PR touches none of its files).
    const suiteChanged = b.suite !== s.suite && suiteHash(base.dir, b) !== suiteHash(head.dir, s);
    const triggerSetChanged = JSON.stringify(triggerPrompts(b)) !== JSON.stringify(triggerPrompts(s));
    const anyChange = renamedFrom || descriptionChanged || bodyChanged || suiteChanged;
    // The PR touches a skill when it touches either side's files (a suite file it deleted is only base's).
    const change: SkillChange = renamedFrom
      ? "rename"
      : !anyChange || !(touches(s) || touches(b))
        ? "unchanged"
        : bodyChanged
          ? "body"
          : descriptionChanged
            ? "description"
            : "suite";
    const batteries =
      change === "unchanged"
        ? { discriminator: false, trigger: false }
        : {
            discriminator: change === "rename" || bodyChanged || suiteChanged,
            // Whatever the router reads (a `disable-model-invocation`, a `when_to_use`) can de-route the skill.
            trigger:
              change === "rename" || descriptionChanged || routingKeysChanged.length > 0 || triggerSetChanged,
          };
    out.push({
      name: s.name,
      change,
      head: s,
      base: b,
      descriptionChanged,
      routingKeysChanged,
      bodyChanged,
      suiteChanged,
      renamedFrom,
      batteries,
      reason: reasonFor(change, batteries),
    });
  }
  for (const b of base.skills)
    if (!headNames.has(b.name) && !used.has(b))
      out.push({
        name: b.name,
        change: "deleted",
        base: b,
        descriptionChanged: false,
        routingKeysChanged: [],
        bodyChanged: false,
        suiteChanged: false,
        batteries: { discriminator: false, trigger: false },
        reason: "deleted: nothing to run",
      });
  return out;
}

/**
 * Each head skill's base record: the one of the same run name, else the one at the same path. A copy's run name
 * (`<name>@<folder>`, `nameCopies`) depends on which copies each side holds: a PR that adds or deletes a copy
 * renames the others, and the path says they are the same skill. A base record paired by path takes the head's
 * run name (its checks and the verdict's keys then match).
 */
function pairByNameOrPath(
  head: readonly Skill[],
  base: readonly Skill[],
): Map<Skill, { record: Skill; from: Skill }> {
  const baseByName = new Map(base.map((s) => [s.name, s]));
  const headNames = new Set(head.map((s) => s.name));
  const out = new Map<Skill, { record: Skill; from: Skill }>();
  for (const s of head) {
    const b = baseByName.get(s.name);
    if (b) out.set(s, { record: b, from: b });
  }
  const baseByPath = new Map(base.filter((b) => !headNames.has(b.name)).map((b) => [b.path, b]));
  for (const s of head) {
    if (out.has(s)) continue;
    const b = baseByPath.get(s.path);
    if (b && agentNameOf(b) === agentNameOf(s)) out.set(s, { record: withRunName(b, s), from: b });
  }
  return out;
}

/**
 * Frontmatter keys no router reads: the skill's version and licence, what it needs to run, the tools it may use.
 * Every other key (the spec's `name` and `description`, Claude Code's `when_to_use`, `disable-model-invocation`,
 * `user-invocable`, `paths`, and keys nobody knows yet) may change whether or when the skill is chosen.
 */
export const ROUTER_BLIND_KEYS: ReadonlySet<string> = new Set([
  "metadata",
  "license",
  "compatibility",
  "allowed-tools",
]);

/** Keys a router may read whose values differ between two frontmatters (head's order, then keys removed). */
export function routingKeyChanges(base: Record<string, unknown>, head: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(head), ...Object.keys(base)])];
  return keys.filter(
    (k) => !ROUTER_BLIND_KEYS.has(k) && JSON.stringify(base[k] ?? null) !== JSON.stringify(head[k] ?? null),
  );
}

function reasonFor(change: SkillChange, b: { discriminator: boolean; trigger: boolean }): string {
  const runs =
    [b.discriminator && "discriminator", b.trigger && "trigger"].filter(Boolean).join(" + ") || "no battery";
  return `${change}: ${runs}`;
}

function sameExceptDescription(a: Skill, b: Skill): boolean {
  return (
    a.body === b.body &&
    a.folder.files.join("\n") === b.folder.files.join("\n") &&
    JSON.stringify({ ...a.frontmatter, description: "" }) ===
      JSON.stringify({ ...b.frontmatter, description: "" })
  );
}

function triggerPrompts(s: Skill): unknown {
  const t = s.suite?.trigger;
  return t ? [t.shouldFire.map((q) => q.prompt), t.shouldNotFire.map((q) => q.prompt)] : null;
}

/** sha256 over the suite's files (path relative to the suite root + content). */
function suiteHash(repoDir: string, s: Skill): string {
  if (!s.suite) return "";
  const h = createHash("sha256");
  for (const f of [...s.suite.sourceFiles].sort()) {
    h.update(f.startsWith(s.suite.root) ? f.slice(s.suite.root.length) : f);
    h.update("\0");
    try {
      h.update(readFileSync(join(repoDir, f)));
    } catch {
      h.update("<missing>");
    }
    h.update("\n");
  }
  return h.digest("hex");
}
