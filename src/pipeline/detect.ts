/**
 * The pipeline's detect stage: the skills of the head (and the base) checkout, which of them this run evaluates,
 * and the scope line that says so. Discovery reads files; the selection over what it found is pure.
 */
import picomatch from "picomatch";
import { isRouterOnlyAgent } from "../agents/registry.js";
import { agentRepoPaths } from "../agents/repo-paths.js";
import { assertionLookup } from "../detect/assertion-types.js";
import type { BaseCheckout, SparseBase } from "../detect/base.js";
import { baseNeeds, moreBaseNeeds } from "../detect/base-needs.js";
import { classifyChanges, type SkillChangeInfo } from "../detect/changes.js";
import { agentNameOf } from "../detect/copies.js";
import { type Discovery, discoverRepository, type ReuseUnchanged } from "../detect/discover.js";
import { skillLayout } from "../detect/layout.js";
import { withoutJudge } from "../detect/needs-judge.js";
import { outsideGlobsDiagnostics } from "../detect/outside-globs.js";
import { crowdedOutRoots, targetFindings, withoutRepeats } from "../detect/targets/index.js";
import "../grade/assertions/index.js";
import { nearDuplicateWarnings } from "../detect/near-duplicates.js";
import * as assertionRegistry from "../grade/assertions/registry.js";
import { InputError, type Report, type Root, type Settings } from "../model/index.js";
import { assignShard } from "../plan/shard.js";
import { appendAll } from "../util/append.js";

export type Scope = NonNullable<Report["scope"]>;

/** Discovery of one checkout with the run's settings (the base side may reuse the head's unchanged skills). */
export type Discover = (dir: string, reuse?: ReuseUnchanged) => Discovery;

/** What the detect stage hands to planning: both sides' skills, the selected changes and the run's scope. */
export interface Detection {
  head: Discovery;
  base?: Discovery;
  changes: SkillChangeInfo[];
  scope: Scope;
  /** Roots of the PR's change to what a target lists (a sibling pushed out of Codex's capped skill list). */
  listingRoots: Root[];
}

/** A `Discover` bound to the settings' profile, globs and assertion types. */
export function discoverWith(settings: Pick<Settings, "profile" | "skills" | "judge" | "targets">): Discover {
  const lookup = assertionLookup(assertionRegistry);
  return (dir, reuse) => {
    const found = discoverRepository(dir, {
      reuse,
      profile: settings.profile,
      ...settings.skills,
      assertionTypes: lookup,
    });
    // Without a judge, natural-language checks are not graded; a case left with none is an error of that case.
    if (!settings.judge) found.diagnostics.push(...withoutJudge(found.skills));
    // The base's targets: what a client it names refuses is an error on both sides (new vs pre-existing).
    const findings = targetFindings(found.skills, settings.targets, dir);
    found.diagnostics = [...withoutRepeats(found.diagnostics, findings), ...findings];
    return found;
  };
}

/**
 * The head checkout's skills and every repository-level warning (near-duplicate descriptions make routers guess).
 * A forecast (`plan`) reports no diagnostic, only errors change what it plans: it skips the near-duplicate search
 * (a tenth of `plan`'s CPU at 10,000 skills), whose findings are only ever warnings.
 */
export function detectHead(settings: Settings, discover: Discover, forecastOnly = false): Discovery {
  const head = discover(settings.repoDir);
  appendAll(
    head.diagnostics,
    settings.policy.warnings ?? [],
    forecastOnly ? [] : nearDuplicateWarnings(head.skills),
    outsideGlobsDiagnostics(head.outsideGlobs, settings.changedFiles),
  );
  return head;
}

/**
 * The base files a PR's run reads, when it need not read the whole base commit (see base-needs.ts): with the PR's
 * changed files, a git base, and nothing that asks for the whole. Undefined: the whole base is checked out.
 */
export function sparseBaseOf(settings: Settings, head: Discovery): SparseBase | undefined {
  const changed = settings.changedFiles;
  if (settings.base?.kind !== "ref" || !changed) return undefined;
  // Every program the run starts from the trusted tree: the agent's, each matrix cell's, and a command judge's.
  const agents = [
    settings.agent,
    ...(settings.judge ? [settings.judge] : []),
    ...(settings.matrix?.cells.map((c) => c.agent) ?? []),
  ];
  const needs = baseNeeds(head, changed, agents.flatMap(agentRepoPaths));
  if ("full" in needs) {
    settings.logger.debug(`base: the whole commit is checked out (${needs.full})`);
    return undefined;
  }
  const namespaceOf = (dir: string) => skillLayout(dir, head.plugins.roots).namespace;
  return { paths: needs.paths, more: (read) => moreBaseNeeds(head, changed, read, namespaceOf) };
}

/** The base's skills (with the PR's changed files, only those the PR touches), the changes to evaluate, the scope. */
export function detectChanges(
  settings: Settings,
  discover: Discover,
  head: Discovery,
  checkout: BaseCheckout | undefined,
): Detection {
  const base = checkout
    ? discover(
        checkout.dir,
        settings.changedFiles ? { from: head, changedFiles: settings.changedFiles } : undefined,
      )
    : undefined;
  const { changes, beforeShard } = selectChanges(
    classifyChanges(
      { dir: settings.repoDir, skills: head.skills },
      base && checkout ? { dir: checkout.dir, skills: base.skills } : undefined,
      settings.changedFiles,
    ),
    settings,
  );
  // Nothing found is a misconfiguration (a wrong folder, wrong globs), never a clean pass.
  if (head.skills.length === 0 && (base?.skills.length ?? 0) === 0)
    throw noSkillFound(settings, head, !!checkout);
  const listingRoots =
    base && settings.targets.includes("codex") ? crowdedOutRoots(head.skills, base.skills) : [];
  return {
    head,
    base,
    changes,
    scope: scopeOf(settings, head, changes, beforeShard, !!checkout),
    listingRoots,
  };
}

function noSkillFound(settings: Settings, head: Discovery, withBase: boolean): InputError {
  const where = `${settings.repoDir}${withBase ? " or its base" : ""}`;
  const outside = head.outsideGlobs;
  return new InputError(
    outside.length > 0
      ? `no skill found in ${where} within the configured skills globs (${(settings.skills.globs ?? []).join(", ") || "include/exclude"}); ${outside.length} SKILL.md file(s) lie outside them (${outside.slice(0, 3).join(", ")}${outside.length > 3 ? ", …" : ""})`
      : `no skill found in ${where}: no SKILL.md file anywhere (git-ignored, vendored and node_modules folders are not read); point --repo / working-directory at the repository`,
  );
}

function scopeOf(
  settings: Settings,
  head: Discovery,
  changes: SkillChangeInfo[],
  beforeShard: number,
  withBase: boolean,
): Scope {
  const found = head.skills.length;
  const toEvaluate = changes.filter((c) => c.batteries.discriminator || c.batteries.trigger).length;
  return {
    skillsFound: found,
    selected: changes.length,
    evaluated: toEvaluate,
    message:
      changes.length === 0
        ? settings.shard && beforeShard > 0
          ? `${found} skill(s) found; shard ${settings.shard.index}/${settings.shard.total} got none of the ${beforeShard} selected skill(s): nothing to evaluate in this shard`
          : withBase
            ? `${found} skill(s) found; this change touches none of them: nothing to evaluate`
            : `${found} skill(s) found; none selected`
        : `${found} skill(s) found, ${changes.length} selected, ${toEvaluate} with batteries to run${withoutSuite(changes)}`,
  };
}

/**
 * "; N with no eval suite …" when some selected skills have nothing to run their batteries on; a suite whose cases
 * hold only natural-language checks, with no judge configured, is said as such (it has a suite).
 */
function withoutSuite(changes: readonly SkillChangeInfo[]): string {
  const bare = changes.filter((c) => c.head && !c.head.suite?.cases.length && !c.head.suite?.trigger);
  const unjudged = bare.filter((c) =>
    c.head!.suite?.partProblems?.some((p) => p.diagnostic.code === "suite/nothing-gradeable"),
  ).length;
  const none = bare.length - unjudged;
  return [
    none > 0 ? `, ${none} of them with no eval suite (only validated: add one with \`skillgate init\`)` : "",
    unjudged > 0
      ? `, ${unjudged} of them with only natural-language checks and no judge to grade them (set \`judge:\` in .skillgate.yml: docs/formats.md)`
      : "",
  ].join("");
}

/**
 * The skills to evaluate (and how many were selected before sharding, to tell an empty shard from an untouched
 * repository): sweeps, filters and shards. A router-only proxy agent answers no discriminator prompt: that battery
 * does not run for it. Other skills a changed description may compete with are not re-run whole: their should-fire
 * prompts likeliest to be stolen run as the changed skill's cross-skill negatives (`makeJob`).
 */
function selectChanges(
  changes: SkillChangeInfo[],
  settings: Settings,
): { changes: SkillChangeInfo[]; beforeShard: number } {
  let out = changes
    .filter((c) => c.change !== "unchanged")
    .map((c) => withoutRouterOnlyBatteries(c, settings));
  if (settings.skillsFilter) {
    const matches = skillMatcher(settings.skillsFilter);
    // A filter that names no skill at all is a typo, not an empty (and so passing) selection.
    if (!changes.some(matches))
      throw new InputError(
        `--skills ${settings.skillsFilter} matches none of the ${changes.length} skill(s) found (${changes
          .slice(0, 8)
          .map((c) => c.name)
          .join(
            ", ",
          )}${changes.length > 8 ? ", …" : ""}); it is matched against skill names, SKILL.md paths and skill folders`,
      );
    out = out.filter(matches);
  }
  const beforeShard = out.length;
  if (settings.shard)
    out = assignShard(
      out.map((c) => ({ ...c, expectedCost: expectedCost(c) })),
      settings.shard.index,
      settings.shard.total,
    );
  return { changes: out.sort((a, b) => a.name.localeCompare(b.name)), beforeShard };
}

/** `--skills`: a glob over skill names, SKILL.md paths and folders; a skill's name selects every copy of it. */
function skillMatcher(filter: string): (c: SkillChangeInfo) => boolean {
  const match = picomatch(filter, { dot: true });
  return (c) => {
    const s = c.head ?? c.base;
    // A skill's name selects every copy of it (`<name>@<folder>`: `nameCopies`).
    return match(c.name) || (!!s && (match(agentNameOf(s)) || match(s.path) || match(s.dir)));
  };
}

function withoutRouterOnlyBatteries(c: SkillChangeInfo, settings: Settings): SkillChangeInfo {
  // A router-only agent's canned line is no answer a discriminator could grade.
  if (!isRouterOnlyAgent(settings.agent.adapter) || !c.batteries.discriminator) return c;
  return {
    ...c,
    batteries: { ...c.batteries, discriminator: false },
    reason: `${c.reason}; discriminator battery not run: the ${settings.agent.adapter} proxy is a router, not an agent (it answers no prompt)`,
  };
}

/** Expected cost of a skill's batteries, in trials: what shards are balanced by. */
function expectedCost(c: SkillChangeInfo): number {
  const s = c.head?.suite;
  if (!s) return 1;
  const cases = c.batteries.discriminator ? s.cases.length * 2 : 0;
  const queries = c.batteries.trigger
    ? (s.trigger?.shouldFire.length ?? 0) + (s.trigger?.shouldNotFire.length ?? 0)
    : 0;
  return cases + queries + 1;
}
