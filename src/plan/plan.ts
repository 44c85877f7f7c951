import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { agentNameOf } from "../detect/copies.js";
import type { InstalledSkill, Skill, TrialMode, TrialRequest } from "../model/index.js";
import { BASELINE_CONSTRAINTS } from "./constraints.js";
import { canonicalJson, sha256Hex as sha256, trialKey } from "./keys.js";

/** Which batteries run for a skill. A description-only edit needs no discriminator battery. */
export interface BatteryPlan {
  discriminator: boolean;
  trigger: boolean;
}

export interface PlanInput {
  repoDir: string;
  skill: Skill;
  /** Every skill of the repository (the router chooses among them in trigger trials; see `catalogueFor`). */
  catalogue: Skill[];
  batteries: BatteryPlan;
  /** Trials per case and mode. */
  trials: number;
  /** Runs per trigger query. */
  triggerRuns: number;
  seed: number;
  /** First trial index (confirmation trials continue after the first batch). */
  firstTrial?: number;
  /** Only these case ids (confirmation runs). */
  onlyCases?: Set<string>;
  /** Trigger queries to run (the skill's own and cross-skill negatives), with their stable check ids. */
  triggerQueries?: { checkId: string; prompt: string }[];
  /** Only these modes (confirmation runs compare one mode). */
  onlyModes?: Set<TrialMode>;
  /** Prompts as the agent receives them (placeholders resolved), by case id; a case missing here is not run. */
  prompts?: Map<string, string>;
}

/**
 * A skill as a trial installs it. Its files are listed, and hashed, only when something asks: a plan of a trigger
 * battery over 10,000 skills needs neither.
 */
function installedSkill(repoDir: string, s: Skill): InstalledSkill {
  return {
    // Installed under the name the agent knows it by: a copy's run name (`<name>@<folder>`) is the run's own.
    name: agentNameOf(s),
    description: s.description,
    // A base record reused from head reads head's copy of its (unchanged) files.
    sourceDir: join(s.folder.root ?? repoDir, s.dir),
    get files() {
      return s.folder.files;
    },
    get contentHash() {
      return s.folder.contentHash;
    },
  };
}

/** A trigger battery's catalogue and its hash, per arm (its skills) and skill under test: made once per run. */
const catalogues = new WeakMap<readonly Skill[], Map<Skill, { install: InstalledSkill[]; hash: string }>>();

function triggerCatalogue(repoDir: string, skill: Skill, all: readonly Skill[]) {
  let bySkill = catalogues.get(all);
  if (!bySkill) {
    bySkill = new Map();
    catalogues.set(all, bySkill);
  }
  let made = bySkill.get(skill);
  if (!made) {
    const installs = catalogueFor(skill, all);
    made = { install: installs.map((s) => installedSkill(repoDir, s)), hash: catalogueHash(installs) };
    bySkill.set(skill, made);
  }
  return made;
}

/**
 * sha256 over what a router sees of the catalogue: every skill's name and frontmatter (its description, and the
 * keys a harness lists or filters by, such as `when_to_use` or `disable-model-invocation`). Bodies and other files
 * are read only after the routing decision, which is all a trigger trial observes (adapters stop there), so an
 * edit that leaves every frontmatter alone re-runs no trigger trial.
 */
export function catalogueHash(
  catalogue: readonly Pick<Skill, "name" | "agentName" | "frontmatter">[],
): string {
  // sha256 of canonicalJson([[name, frontmatter], …] sorted by name), written piece by piece: each frontmatter's
  // canonical text is made once per run (a PR's two arms share the records of the skills it leaves alone).
  const entries = catalogue
    .map((s) => [agentNameOf(s), s.frontmatter] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const h = createHash("sha256").update("[");
  entries.forEach(([name, frontmatter], i) => {
    h.update(`${i > 0 ? "," : ""}[${JSON.stringify(name)},${canonicalFrontmatter(frontmatter)}]`);
  });
  return h.update("]").digest("hex");
}

/** Canonical JSON of parsed frontmatter, by object: parsed values are shared and never changed (parse-once.ts). */
const canonicalFrontmatters = new WeakMap<object, string>();

function canonicalFrontmatter(frontmatter: Skill["frontmatter"]): string {
  if (frontmatter === null || typeof frontmatter !== "object") return canonicalJson(frontmatter);
  let text = canonicalFrontmatters.get(frontmatter);
  if (text === undefined) {
    text = canonicalJson(frontmatter);
    canonicalFrontmatters.set(frontmatter, text);
  }
  return text;
}

/**
 * The catalogue a trigger trial of `skill` installs: one skill per name an agent knows, as one root holds them.
 * Of several copies of a skill (`nameCopies`), the one under test, else the first.
 */
export function catalogueFor(skill: Skill, all: readonly Skill[]): Skill[] {
  const byName = new Map<string, Skill>();
  for (const s of all) {
    const name = agentNameOf(s);
    if (!byName.has(name)) byName.set(name, s);
  }
  byName.set(agentNameOf(skill), skill);
  return [...byName.values()];
}

/**
 * Builds the trial requests of one skill: each case × {skill, baseline} × trials, and each trigger query ×
 * runs with the whole catalogue installed. Pure apart from reading case files to hash them.
 */
export function planTrials(input: PlanInput): TrialRequest[] {
  const { repoDir, skill } = input;
  const suite = skill.suite;
  // What the agent is told and reports (installed name, activations, baseline contamination).
  const agentName = agentNameOf(skill);
  const first = input.firstTrial ?? 0;
  const requests: TrialRequest[] = [];
  const fileHashes = new Map<string, string>();
  const hashOf = (rel: string) => {
    let h = fileHashes.get(rel);
    if (!h) {
      h = sha256(readFileSync(join(repoDir, rel)));
      fileHashes.set(rel, h);
    }
    return h;
  };
  // The agent's seed follows from the trial's content key and the run seed: stable under reordering.
  const seedFor = (key: string) => (Number.parseInt(key.slice(0, 8), 16) ^ input.seed) >>> 0;
  // A skill without a suite can still run trigger queries (other skills' prompts it must not take).
  if (input.batteries.discriminator && suite) {
    const installed = [installedSkill(repoDir, skill)];
    for (const c of suite.cases) {
      if (input.onlyCases && !input.onlyCases.has(c.id)) continue;
      const prompt = input.prompts ? input.prompts.get(c.id) : c.prompt;
      if (prompt === undefined) continue;
      const files = c.files.map((f) => ({ to: f.to, from: join(repoDir, f.from), sha256: hashOf(f.from) }));
      for (let t = first; t < first + input.trials; t++)
        for (const mode of ["skill", "baseline"] as const) {
          if (input.onlyModes && !input.onlyModes.has(mode)) continue;
          const constraints = mode === "baseline" ? BASELINE_CONSTRAINTS : undefined;
          const key = trialKey({
            mode,
            skillContentHash: skill.folder.contentHash,
            prompt,
            files: files.map(({ to, sha256 }) => ({ to, sha256 })),
            trial: t,
            constraints,
          });
          requests.push({
            key,
            skill: agentName,
            caseId: c.id,
            mode,
            trial: t,
            prompt,
            files: files.map(({ to, from }) => ({ to, from })),
            install: mode === "skill" ? installed : [],
            constraints,
            seed: seedFor(key),
          });
        }
    }
  }
  if (
    input.batteries.trigger &&
    input.triggerQueries?.length &&
    (!input.onlyModes || input.onlyModes.has("trigger"))
  ) {
    const { install: catalogue, hash: catHash } = triggerCatalogue(repoDir, skill, input.catalogue);
    for (const q of input.triggerQueries)
      for (let t = first; t < first + input.triggerRuns; t++) {
        const key = trialKey({
          mode: "trigger",
          catalogueHash: catHash,
          prompt: q.prompt,
          files: [],
          trial: t,
        });
        requests.push({
          key,
          skill: agentName,
          caseId: q.checkId,
          mode: "trigger",
          trial: t,
          prompt: q.prompt,
          files: [],
          install: catalogue,
          seed: seedFor(key),
        });
      }
  }
  return requests;
}
