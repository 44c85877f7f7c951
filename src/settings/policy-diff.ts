/**
 * What the PR's `.skillgate.yml` changes in the base's, key by key, ranked with the change-ranking engine
 * (`util/change-rank.ts`) that suites use too. A change that loosens the gate (lower thresholds, a higher α, fewer
 * trials, a weaker profile or override …) blocks: once merged it would weaken every later PR. A tightening, or a
 * change whose effect on the verdict cannot be loosening (budgets, concurrency, timeouts), is reported only.
 */
import { type SkillgateConfig, THRESHOLD_KEYS } from "../model/index.js";
import {
  type Rank,
  rankAllowList,
  rankChoice,
  rankMaximum,
  rankMinimum,
  setChange,
} from "../util/change-rank.js";
import { DEFAULT_VERDICT_POLICY } from "./defaults.js";
import { droppedTargets } from "./targets.js";

export type PolicyChangeKind = "loosened" | "tightened" | "changed";

/** One difference between the base's policy and the PR's, located in the PR's file. */
export interface PolicyChange {
  /** `policy/<key>`: stable across runs. */
  id: string;
  /** Dotted key, e.g. `verdict.alpha`. */
  key: string;
  kind: PolicyChangeKind;
  message: string;
  file: string;
  line: number;
  column: number;
}

/** The defaults an unset minimum stands for. */
export interface PolicyDefaults {
  trials: number;
  triggerRuns: number;
  competitorPrompts: number;
  casePrompts?: number;
}

/** Records one change of `key` (located at `path`, by default the key's own). */
export type AddPolicyChange = (key: string, kind: PolicyChangeKind, message: string, path?: string[]) => void;

type Config = Record<string, unknown>;

const fmt = (v: unknown): string => (v === undefined ? "unset" : JSON.stringify(v));
// As written: two objects with their keys in another order are a change (plain JSON, unlike the suites' diff).
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const was = (key: string, bv: unknown, hv: unknown) => `${key} was ${fmt(bv)} at base and is ${fmt(hv)} here`;

/** Adapters whose answers are not a live agent's: switching to one makes every later verdict a proxy. */
const PROXY_ADAPTERS = new Set(["replay", "lexical"]);

/** Every change from the base's configuration `b` to the PR's `h`, in the order they are reported. */
export function diffPolicies(
  b: SkillgateConfig,
  h: SkillgateConfig,
  add: AddPolicyChange,
  d: PolicyDefaults,
): void {
  minimums(b, h, add, d);
  verdictPolicy(b, h, add);
  const profile = rankChoice(b.profile, h.profile, "claude-code", "strict");
  if (profile !== "same") add("profile", profile, was("profile", b.profile, h.profile));
  const dropped = droppedTargets(b, h);
  if (dropped.length > 0)
    add(
      "targets",
      "loosened",
      `${was("targets", b.targets, h.targets)}: the rules of ${dropped.join(", ")} would no longer be errors`,
    );
  else if (!same(b.targets, h.targets)) add("targets", "changed", was("targets", b.targets, h.targets));
  agents(b, h, add);
  // Which skills are evaluated, how gates probe, who may override, how isolated: any change can weaken the
  // gate in ways a key-by-key comparison cannot rank, so it needs a maintainer's approval.
  for (const key of ["skills", "gates", "override", "isolation", "onDemand"] as const) {
    const [bk, hk] = [(b as Config)[key], (h as Config)[key]];
    if (!same(bk, hk))
      add(
        key,
        "loosened",
        `${key} is changed (${fmt(bk)} at base, ${fmt(hk)} here): it can change what is checked, so it needs a maintainer's approval`,
      );
  }
  allowances(b, h, add);
  // Cost and plumbing: they cannot make a failing PR pass (a spent budget is an error, never a pass).
  for (const key of ["budget", "concurrency", "timeoutSeconds", "cache"] as const) {
    const [bk, hk] = [(b as Config)[key], (h as Config)[key]];
    if (!same(bk, hk)) add(key, "changed", `${was(key, bk, hk)}; this run uses the base's`);
  }
}

/** Numbers where lower is looser: thresholds, trials, prompts checked, confirmation trials. */
function minimums(b: SkillgateConfig, h: SkillgateConfig, add: AddPolicyChange, d: PolicyDefaults): void {
  const atLeast = (key: string, bv: number | undefined, hv: number | undefined, dflt?: number) => {
    const rank = rankMinimum(bv, hv, dflt);
    if (rank === "same") return;
    const words: Record<Exclude<Rank, "same">, string> = {
      loosened: ": lowered",
      tightened: (bv ?? dflt) === undefined ? ": a new minimum" : ": raised",
      changed: "",
    };
    add(key, rank, `${was(key, bv, hv)}${words[rank]}`);
  };
  for (const k of THRESHOLD_KEYS) atLeast(`thresholds.${k}`, b.thresholds?.[k], h.thresholds?.[k]);
  atLeast("trials", b.trials, h.trials, d.trials);
  atLeast("triggerRuns", b.triggerRuns, h.triggerRuns, d.triggerRuns);
  // Fewer competitor prompts is less coverage of the prompts a description can steal: a loosening.
  atLeast(
    "competitors.maxPrompts",
    b.competitors?.maxPrompts,
    h.competitors?.maxPrompts,
    d.competitorPrompts,
  );
  // Fewer case prompts run as should-fire queries is less of a description's routing checked: a loosening.
  atLeast("routing.casePrompts", b.routing?.casePrompts, h.routing?.casePrompts, d.casePrompts);
  const requireSuite = rankChoice(b.requireSuite, h.requireSuite, false, true);
  if (requireSuite !== "same")
    add(
      "requireSuite",
      requireSuite,
      `${was("requireSuite", b.requireSuite, h.requireSuite)}${requireSuite === "loosened" ? ": a new skill without an eval suite would no longer block" : ""}`,
    );
  const [bv, hv, dv] = [b.verdict, h.verdict, DEFAULT_VERDICT_POLICY];
  atLeast(
    "verdict.maxConfirmationTrials",
    bv?.maxConfirmationTrials,
    hv?.maxConfirmationTrials,
    dv.maxConfirmationTrials,
  );
  atLeast("verdict.baseDepth", bv?.baseDepth, hv?.baseDepth, dv.baseDepth);
}

/** α (higher is looser) and the enums where one value blocks and the other does not. */
function verdictPolicy(b: SkillgateConfig, h: SkillgateConfig, add: AddPolicyChange): void {
  const [bv, hv] = [b.verdict, h.verdict];
  const alpha = rankMaximum(bv?.alpha, hv?.alpha, DEFAULT_VERDICT_POLICY.alpha);
  if (alpha !== "same")
    add(
      "verdict.alpha",
      alpha,
      `${was("verdict.alpha", bv?.alpha, hv?.alpha)}${alpha === "loosened" ? ": a new root then needs less evidence" : ""}`,
    );
  for (const key of ["inconclusive", "preExisting", "headOnly"] as const) {
    const rank = rankChoice<string>(bv?.[key], hv?.[key], DEFAULT_VERDICT_POLICY[key] ?? "fail", "fail");
    if (rank !== "same")
      add(
        `verdict.${key}`,
        rank,
        `${was(`verdict.${key}`, bv?.[key], hv?.[key])}${rank === "loosened" ? ": such roots would no longer block" : ""}`,
      );
  }
}

/** The agent, the judge and the matrix: a live agent replaced by a proxy, or the judge removed, loosens. */
function agents(b: SkillgateConfig, h: SkillgateConfig, add: AddPolicyChange): void {
  for (const key of ["agent", "judge"] as const) {
    if (same(b[key], h[key])) continue;
    const toProxy =
      h[key] && PROXY_ADAPTERS.has(h[key]!.adapter) && !PROXY_ADAPTERS.has(b[key]?.adapter ?? "");
    const dropped = key === "judge" && b.judge && !h.judge;
    add(
      key,
      toProxy || dropped ? "loosened" : "changed",
      toProxy
        ? `${key} becomes the ${h[key]!.adapter} adapter, which answers without a live agent`
        : dropped
          ? "the judge is removed: judge assertions could no longer be graded"
          : `${key} is changed (${fmt(b[key])} at base, ${fmt(h[key])} here); this run uses the base's`,
    );
  }
  if (same(b.agents, h.agents)) return;
  const loosening = matrixLoosening(b.agents ?? [], h.agents ?? []);
  add(
    "agents",
    loosening ? "loosened" : "changed",
    loosening
      ? `agents: ${loosening}; this run uses the base's cells`
      : `agents is changed (${fmt(b.agents)} at base, ${fmt(h.agents)} here); this run uses the base's cells`,
  );
}

/** How the PR's matrix would weaken the base's once merged (a cell dropped, made optional, label-gated or replayed). */
function matrixLoosening(
  base: NonNullable<SkillgateConfig["agents"]>,
  head: NonNullable<SkillgateConfig["agents"]>,
): string | undefined {
  for (const b of base) {
    const h = head.find((c) => c.name === b.name);
    if (!h) return `cell ${b.name} is removed`;
    if (b.required !== false && h.required === false) return `cell ${b.name} is no longer required`;
    if (!b.label && h.label) return `cell ${b.name} would run only with the label ${h.label}`;
    if (PROXY_ADAPTERS.has(h.adapter) && !PROXY_ADAPTERS.has(b.adapter))
      return `cell ${b.name} becomes the ${h.adapter} adapter, which answers without a live agent`;
  }
  return undefined;
}

/**
 * Allow-lists, where one more entry loosens: `security.allow` (a risky action would no longer block) and `env`
 * (more of the runner's environment handed to the untrusted agent).
 */
function allowances(b: SkillgateConfig, h: SkillgateConfig, add: AddPolicyChange): void {
  const quoted = (xs: string[]) => xs.map((x) => JSON.stringify(x)).join(", ");
  for (const list of ["hosts", "commands"] as const) {
    const [before, after] = [b.security?.allow?.[list] ?? [], h.security?.allow?.[list] ?? []];
    const { added, removed } = setChange(before, after);
    const key = `security.allow.${list}`;
    const rank = rankAllowList(before, after);
    if (rank === "loosened")
      add(
        key,
        rank,
        `${key} allows ${quoted(added)} in addition to the base's: a risky action would no longer block`,
      );
    else if (rank === "tightened") add(key, rank, `${key} no longer allows ${quoted(removed)}`);
  }
  const { added, removed } = setChange(b.env ?? [], h.env ?? []);
  const env = rankAllowList(b.env ?? [], h.env ?? []);
  if (env === "loosened")
    add(
      "env",
      env,
      `env forwards ${added.join(", ")} to the agent in addition to the base's ${fmt(b.env ?? [])}`,
    );
  else if (env === "tightened") add("env", env, `env no longer forwards ${removed.join(", ")}`);
}
