import type { EvidenceCheck, Report, Root, SkillReport, TrialTranscript } from "../../../model/report.js";
import type { RenderContext } from "../context.js";
import { sourceLink } from "../context.js";
import { el, esc } from "../escape.js";
import { testLine } from "../format.js";
import { badge, sideBySide } from "../transcript.js";
import { type FilterKeys, filterAttrs, type Section } from "./common.js";

const BATTERY_OF_KIND: Partial<Record<Root["kind"], FilterKeys["battery"]>> = {
  assertion: "discriminator",
  gate: "discriminator",
  trigger: "trigger",
};

/** Every root, the blocking ones first (in the report's order), then the rest: why the verdict is what it is. */
export const rootsSection: Section = {
  id: "roots",
  title: "Roots",
  render(ctx) {
    const roots = orderedRoots(ctx.report);
    const blocking = ctx.report.blockingRoots.length;
    if (roots.length === 0) return `<p>No root failures: every check passed or none ran.</p>`;
    const cards = roots.map((root, i) => rootCard(ctx, root, i));
    return `<p class="muted">${blocking} blocking, ${roots.length - blocking} not blocking. A root is a failed check no other failure explains; the checks it explains cascade from it.</p>${cards.join("")}`;
  },
};

/** The roots in the order the page shows them (card `root-<i>`): the blocking ones, then the rest. */
export function orderedRoots(r: Report): Root[] {
  const seen = new Set(r.blockingRoots.map(rootKey));
  const rest = [...r.policy.roots, ...r.skills.flatMap((s) => s.roots)].filter((x) => !seen.has(rootKey(x)));
  return [...r.blockingRoots, ...rest];
}

/** The id of a changed line in the PR diff section (`changes.ts`). */
export function diffLineId(fileIndex: number, line: number): string {
  return `diff-${fileIndex}-${line}`;
}

/** Where the PR changed the line a root points at, when it did. */
function changedLine(ctx: RenderContext, root: Root): string {
  const i = (ctx.report.changes ?? []).findIndex(
    (c) =>
      c.file === root.file &&
      c.hunks.some((h) => h.lines.some((l) => l.kind === "+" && l.line === root.line)),
  );
  return i < 0 ? "" : ` · <a href="#${diffLineId(i, root.line)}">changed in this PR</a>`;
}

function rootKey(r: Root): string {
  return `${r.skill}\0${r.id}`;
}

function rootCard(ctx: RenderContext, root: Root, i: number): string {
  const skill = ctx.report.skills.find((s) => s.name === root.skill);
  const status = [root.blocking ? "failing" : "passing", root.status, ...(root.blocking ? ["blocking"] : [])];
  const head = [
    badge(root.blocking ? "fail" : "info", root.blocking ? "blocking" : "not blocking"),
    badge(root.status === "new" ? "new" : root.status === "error" ? "error" : "other", root.status),
    `<span class="kind">${esc(root.kind)}</span>`,
    esc(root.title),
  ].join(" ");
  const test = root.head || root.pValue !== undefined ? `<p class="test">${testLine(root)}</p>` : "";
  return el(
    "article",
    {
      class: `root fi${root.blocking ? " blocking" : ""}`,
      id: `root-${i}`,
      ...filterAttrs({ skill: root.skill, status, battery: BATTERY_OF_KIND[root.kind] ?? "other" }),
    },
    [
      `<h3>${head}</h3>`,
      test,
      `<p class="where">${root.skill ? `<strong>${esc(root.skill)}</strong> · ` : ""}${sourceLink(ctx, root.file, root.line)}${changedLine(ctx, root)} <span class="muted">id ${esc(root.id)}</span></p>`,
      `<p class="msg">${esc(root.message)}</p>`,
      skill ? cascade(ctx, skill, root) : "",
      skill ? exemplars(ctx, skill, root) : "",
    ].join(""),
  );
}

/**
 * The checks a root explains as the dependency DAG shows them: each under the checks it depends on (a check with
 * two failing parents appears under both, marked).
 */
function cascade(ctx: RenderContext, skill: SkillReport, root: Root): string {
  if (!root.cascaded.length) return "";
  const inCascade = new Set(root.cascaded);
  const parents = new Map<string, string[]>();
  const locs = new Map<string, EvidenceCheck["loc"]>();
  for (const c of skill.evidence?.head ?? []) {
    if (!inCascade.has(c.checkId) || parents.has(c.checkId)) continue;
    parents.set(c.checkId, c.dependsOn);
    locs.set(c.checkId, c.loc);
  }
  const childrenOf = (id: string) =>
    root.cascaded.filter((c) => {
      const ps = parents.get(c) ?? [];
      // A cascaded check whose parents are unknown hangs directly under the root.
      return id === root.id
        ? ps.length === 0 || ps.includes(id) || !ps.some((p) => inCascade.has(p))
        : ps.includes(id);
    });
  const tree = (id: string, path: Set<string>): string => {
    const kids = childrenOf(id).filter((k) => !path.has(k));
    if (!kids.length) return "";
    const items = kids.map((k) => {
      const loc = locs.get(k);
      const also = (parents.get(k) ?? []).filter((p) => p !== id && (p === root.id || inCascade.has(p)));
      const next = new Set(path).add(k);
      return `<li><code>${esc(k)}</code>${loc ? ` ${sourceLink(ctx, loc.file, loc.line)}` : ""}${also.length ? ` <span class="muted">(also under ${esc(also.join(", "))})</span>` : ""}${tree(k, next)}</li>`;
    });
    return `<ul>${items.join("")}</ul>`;
  };
  return `<details class="cascade"><summary>Cascade: ${root.cascaded.length} check(s) fail because this root fails</summary><div class="dag"><p><code>${esc(root.id)}</code> (root)</p>${tree(root.id, new Set([root.id]))}</div></details>`;
}

function checkStatus(t: TrialTranscript, checkId: string): string | undefined {
  return t.checks.find((c) => c.checkId === checkId)?.status;
}

const failed = (s: string | undefined) => s === "fail" || s === "error";

/** The trials that show a root: a failing head trial beside a passing base trial, the skill beside the baseline. */
function exemplars(ctx: RenderContext, skill: SkillReport, root: Root): string {
  const ts = skill.transcripts ?? [];
  const graded = ts.filter((t) => checkStatus(t, root.id) !== undefined);
  if (!graded.length) return "";
  const headFail =
    graded.find((t) => t.arm === "head" && t.mode !== "baseline" && failed(checkStatus(t, root.id))) ??
    graded.find((t) => t.arm === "head" && failed(checkStatus(t, root.id)));
  const baseOf = (pass: boolean) =>
    graded.find(
      (t) =>
        t.arm === "base" && t.mode === (headFail?.mode ?? t.mode) && failed(checkStatus(t, root.id)) !== pass,
    );
  const basePass = baseOf(true) ?? baseOf(false);
  const baseFails = basePass ? failed(checkStatus(basePass, root.id)) : false;
  const sides = [
    { label: "Head: fails this check", t: headFail, none: "No failing head trial kept." },
    {
      label: basePass ? `Base: ${baseFails ? "fails it too" : "passes this check"}` : "Base",
      t: basePass,
      none: ctx.report.base
        ? "No base trial of this check (new in this change)."
        : "No base: a sweep compares nothing.",
    },
  ];
  // The baseline of the same case beside them (the head trial is shown once, not again beside the baseline).
  const baseline =
    headFail?.mode === "skill"
      ? ts.find(
          (t) =>
            t.arm === "head" &&
            t.mode === "baseline" &&
            t.caseId === headFail.caseId &&
            checkStatus(t, root.id) !== undefined,
        )
      : undefined;
  if (baseline)
    sides.push({
      label: `Baseline, without the skill: ${failed(checkStatus(baseline, root.id)) ? "fails" : "passes"} this check`,
      t: baseline,
      none: "",
    });
  const pairs = [sideBySide(ctx, skill.name, ...sides)];
  return `<details class="tx"><summary>Transcripts: failing head trial beside ${basePass ? "a base trial" : "the base"}${baseline ? " and the baseline" : ""}</summary>${pairs.join("")}</details>`;
}
