/**
 * The parts of a suite other than its assertions, head against base (`weakening.ts` says why and how findings are
 * placed): a case's prompt, files, vars and oracle; the suite's oracle; every file a check reads at grading; the
 * trigger prompts.
 */
import { promptTemplate } from "../detect/foreign-vars.js";
import { comparatorOf, short } from "../grade/assertions/compare.js";
import type { Case, Skill, SourceLocation, Suite, SuiteMeta, TriggerQuery } from "../model/index.js";
import { sameJson } from "../util/change-rank.js";
import {
  checkInputs,
  commandFiles,
  firstDifferentLine,
  type InputSet,
  inSuite,
  type Trees,
  type TreeView,
} from "./dependencies.js";
import type { WeakeningKind } from "./weakening.js";

export const normalisePrompt = (p: string): string => p.trim().replace(/\s+/g, " ").toLowerCase();

export type Add = (
  kind: WeakeningKind,
  detail: string,
  loc: SourceLocation,
  message: string,
  baseLoc?: SourceLocation,
  direction?: "loosened" | "tightened",
) => void;

/** A fixture's content: the file's digest, or a folder's every file and its digest. */
function fixtureDigest(view: TreeView, rel: string): string | undefined {
  const own = view.digest(rel);
  if (own !== undefined) return own;
  const inside = view.list(rel);
  return inside.length ? JSON.stringify(inside.map((f) => [f, view.digest(f)])) : undefined;
}

/**
 * A case as the agent receives it and as it is graded, head against base: its prompt in skillgate's syntax (a case
 * moved to another tool's format, where `$` is text but for meta.json's vars, is sent differently though it reads
 * the same: `promptTemplate`), its files by where they land and what they hold, its vars and oracle.
 */
export function compareCase(
  bc: Case,
  hc: Case,
  add: Add,
  trees: Trees | undefined,
  metas: { base: SuiteMeta; head: SuiteMeta },
  skillFiles?: SkillFiles,
): void {
  const where = `(${bc.loc.file}:${bc.loc.line} at base)`;
  if (normalisePrompt(promptTemplate(bc, metas.base)) !== normalisePrompt(promptTemplate(hc, metas.head)))
    add(
      "case-changed",
      `${hc.id}/prompt`,
      hc.loc,
      bc.prompt === hc.prompt
        ? `The prompt of case "${hc.id}" reaches the agent differently ${where}: the same text, read as ${hc.literal ? "another tool's format, where `$` is text but for meta.json's vars" : "skillgate's, where `$name` is a placeholder"} here and not at base.`
        : `The prompt of case "${hc.id}" changed from "${short(bc.prompt)}" to "${short(hc.prompt)}" ${where}: a reworded task can drop its hard path.`,
      bc.loc,
    );
  compareFiles(bc, hc, add, trees, where, skillFiles);
  if (!sameJson(bc.vars, hc.vars))
    add(
      "vars-changed",
      hc.id,
      hc.loc,
      `The vars of case "${hc.id}" changed ${where}: expected values are part of the suite.`,
      bc.loc,
    );
  const oracleOf = (c: Case) => (c.oracle ? [c.oracle.command, c.oracle.timeoutMs ?? null] : null);
  if (!sameJson(oracleOf(bc), oracleOf(hc)))
    add(
      "oracle-changed",
      `${hc.id}/oracle`,
      hc.oracle?.loc ?? hc.loc,
      `The oracle of case "${hc.id}" changed (${bc.oracle ? JSON.stringify(bc.oracle.command) : "none"} at base, ${hc.oracle ? JSON.stringify(hc.oracle.command) : "none"} here) ${where}: it computes the expected values.`,
      bc.oracle?.loc ?? bc.loc,
    );
}

/** Each arm's files installed for the agent as the skill's own (repository-relative; `withheld.ts`). */
export type SkillFiles = { base: ReadonlySet<string>; head: ReadonlySet<string> };

/** The files of each arm's skill folder installed for the agent, when both skills are known. */
export function skillFilesOf(base: Skill | undefined, head: Skill | undefined): SkillFiles | undefined {
  const installed = (s: Skill) => new Set(s.folder.files.map((f) => (s.dir === "." ? f : `${s.dir}/${f}`)));
  return base && head ? { base: installed(base), head: installed(head) } : undefined;
}

/** Whether `rel` (a file, or a folder and every file under it) is installed as the skill's own in that arm. */
function skillOwns(view: TreeView, files: ReadonlySet<string>, rel: string): boolean {
  if (files.has(rel)) return true;
  const inside = view.list(rel);
  return inside.length > 0 && inside.every((f) => files.has(f));
}

/**
 * A case's files as the agent receives them: where each lands and, with both checkouts at hand, what it holds
 * (a fixture moved with its case to another suite folder is the same file); without them, where each comes from.
 * A file the skill owns in both arms (its `references/rules.md` that a case also hands over) is compared with
 * the skill: an edit of it is a change of the skill, which the trials judge, not a weakened case (#43).
 */
function compareFiles(
  bc: Case,
  hc: Case,
  add: Add,
  trees: Trees | undefined,
  where: string,
  skillFiles?: SkillFiles,
): void {
  const landing = (c: Case) => c.files.map((f) => (trees ? f.to : `${f.from}>${f.to}`)).sort();
  const bf = landing(bc);
  const hf = landing(hc);
  if (!sameJson(bf, hf))
    add(
      "case-changed",
      `${hc.id}/files`,
      hc.loc,
      `The files of case "${hc.id}" changed (${bf.join(", ") || "none"} at base, ${hf.join(", ") || "none"} here) ${where}.`,
      bc.loc,
    );
  else if (trees)
    for (const f of hc.files) {
      const from = bc.files.find((x) => x.to === f.to)?.from ?? f.from;
      const owned =
        skillFiles &&
        skillOwns(trees.base, skillFiles.base, from) &&
        skillOwns(trees.head, skillFiles.head, f.from);
      if (owned) continue;
      const b = fixtureDigest(trees.base, from);
      const h = fixtureDigest(trees.head, f.from);
      if (b !== h)
        add(
          "case-changed",
          `${hc.id}/file/${f.to}`,
          hc.loc,
          `The fixture ${f.from} of case "${hc.id}" changed ${where}.`,
          bc.loc,
        );
    }
}

export function compareOracle(base: Suite, head: Suite, add: Add, trees: Trees | undefined): void {
  const bo = base.meta.oracle;
  const ho = head.meta.oracle;
  if (!bo && !ho) return;
  const loc = ho?.loc ?? head.meta.loc;
  const baseLoc = bo?.loc ?? base.meta.loc;
  const where = `(${baseLoc.file}:${baseLoc.line} at base)`;
  if (!bo || !ho || bo.command !== ho.command || bo.timeoutMs !== ho.timeoutMs) {
    add(
      "oracle-changed",
      "command",
      loc,
      `The oracle changed (${bo ? JSON.stringify(bo.command) : "none"} at base, ${ho ? JSON.stringify(ho.command) : "none"} here) ${where}: it computes the expected values.`,
      baseLoc,
    );
    return;
  }
  if (!trees) return;
  for (const f of commandFiles(ho.command, head.root)) {
    const rel = f.slice(head.root.length + 1);
    if (trees.base.digest(`${base.root}/${rel}`) !== trees.head.digest(f))
      add(
        "oracle-changed",
        `file/${rel}`,
        loc,
        `The oracle's ${rel} was edited ${where}: it computes the expected values.`,
        baseLoc,
      );
  }
}

/**
 * Every file a check reads at grading, on either side (a PR may add an import or drop one), compared in full.
 * The predicate modules and oracle scripts themselves have findings of their own (`predicate-changed`,
 * `oracle-changed`); a case's fixtures are compared with its case.
 */
export function compareInputs(
  base: Suite,
  head: Suite,
  add: Add,
  trees: Trees,
  fallback: SourceLocation,
): void {
  const own = new Set<string>();
  for (const s of [base, head]) {
    for (const c of s.cases) {
      for (const f of c.files) own.add(f.from);
      for (const a of c.assertions) {
        const module = comparatorOf(a.type).module?.(a);
        if (module !== undefined) {
          const m = inSuite(s.root, module);
          if (m) own.add(m);
        }
      }
    }
    if (s.meta.oracle) for (const f of commandFiles(s.meta.oracle.command, s.root)) own.add(f);
  }
  const inputs: InputSet = checkInputs(base, trees.base);
  for (const [file, readers] of checkInputs(head, trees.head))
    inputs.set(file, new Set([...(inputs.get(file) ?? []), ...readers]));
  for (const [file, readers] of [...inputs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (own.has(file)) continue;
    const b = trees.base.digest(file);
    const h = trees.head.digest(file);
    if (b === h) continue;
    const who = [...readers].sort().join(", ");
    const why = "each arm grades with its own checkout's copy, so the check itself changed";
    if (h === undefined)
      add(
        "dependency-changed",
        file,
        fallback,
        `${file}, read by ${who}, was deleted (it existed at base; annotated on line 1 of ${fallback.file}): ${why}.`,
        { file, line: 1, column: 1 },
      );
    else {
      const line = firstDifferentLine(trees.base.text(file), trees.head.text(file));
      add(
        "dependency-changed",
        file,
        { file, line, column: 1 },
        b === undefined
          ? `${file} is new, read by ${who}: ${why}.`
          : `${file}, read by ${who}, changed from line ${line} on (${file}:${line} at base): ${why}.`,
        b === undefined ? undefined : { file, line, column: 1 },
      );
    }
  }
}

export function compareTriggers(
  base: Suite,
  head: Suite,
  add: Add,
  deletedAt: (l: SourceLocation) => { loc: SourceLocation; where: string },
): void {
  if (!base.trigger && !head.trigger) return;
  const triggerLoc = head.trigger?.loc;
  const side = (s: Suite, which: "shouldFire" | "shouldNotFire") => s.trigger?.[which] ?? [];
  const byPrompt = (qs: TriggerQuery[]) => new Map(qs.map((q) => [normalisePrompt(q.prompt), q]));
  for (const which of ["shouldFire", "shouldNotFire"] as const) {
    const other = which === "shouldFire" ? "shouldNotFire" : "shouldFire";
    const kept = byPrompt(side(head, which));
    const movedTo = byPrompt(side(head, other));
    side(base, which).forEach((q, i) => {
      const p = normalisePrompt(q.prompt);
      const h = kept.get(p);
      if (h) {
        if (h.weight < q.weight)
          add(
            "trigger-weight-lowered",
            `${which}/${i}`,
            h.loc,
            `Trigger prompt "${short(q.prompt)}" weighs ${h.weight} instead of ${q.weight} (confidence lowered) (${q.loc.file}:${q.loc.line} at base).`,
            q.loc,
          );
        return;
      }
      const moved = movedTo.get(p);
      if (moved) {
        add(
          "trigger-prompt-moved",
          `${which}/${i}`,
          moved.loc,
          `Trigger prompt "${short(q.prompt)}" moved from ${which} to ${other} (${q.loc.file}:${q.loc.line} at base): the router's answer to it is no longer held to the base's expectation.`,
          q.loc,
        );
        return;
      }
      const { loc, where } = triggerLoc
        ? { loc: triggerLoc, where: `(was ${q.loc.file}:${q.loc.line} at base)` }
        : deletedAt(q.loc);
      add(
        "trigger-prompt-removed",
        `${which}/${i}`,
        loc,
        `Trigger prompt "${short(q.prompt)}" was removed from ${which} (or reworded) ${where}.`,
        q.loc,
      );
    });
    const before = new Set(
      [...side(base, which), ...side(base, other)].map((q) => normalisePrompt(q.prompt)),
    );
    side(head, which).forEach((q, i) => {
      if (!before.has(normalisePrompt(q.prompt)))
        add(
          "trigger-prompt-added",
          `${which}/+${i}`,
          q.loc,
          `Trigger prompt "${short(q.prompt)}" was added to ${which}.`,
          undefined,
          "tightened",
        );
    });
  }
}
