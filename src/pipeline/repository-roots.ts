/**
 * Roots the repository holds rather than one skill: the PR's changes to the trusted policy, problems of its own
 * config file, validation errors no skill owns; and the order roots are listed in.
 */
import type { Diagnostic, Root, Settings } from "../model/index.js";

/** The PR's changes to the trusted policy, and problems of its own config file, as repository roots. */
export function rootsOfPolicy(settings: Settings): Root[] {
  const roots: Root[] = [];
  const { policy, override } = settings;
  for (const c of policy.changes) {
    const loosened = c.kind === "loosened";
    const accepted = loosened && override ? ` Accepted by a maintainer's override (${override.by}).` : "";
    roots.push({
      id: c.id,
      kind: loosened ? "policy-weakened" : "policy-changed",
      skill: "",
      status: "new",
      title: loosened ? `Policy weakened: ${c.key}` : `Policy ${c.kind}: ${c.key}`,
      message: `${c.message}. This run is judged by ${policy.origin}.${loosened ? ` A loosening needs a maintainer's approval (the label "${policy.overrideLabel}").` : ""}${accepted}`,
      file: c.file,
      line: c.line,
      column: c.column,
      cascaded: [],
      blocking: loosened && !override,
      change: c.kind,
    });
  }
  for (const d of policy.headDiagnostics.filter((x) => x.severity === "error"))
    roots.push({
      id: `validation/${d.code}/${d.file}:${d.line}`,
      kind: "validation",
      skill: "",
      status: "new",
      title: `Invalid: ${d.code}`,
      message: `${d.message} (this PR's configuration: this run is judged by ${policy.origin}, but the file would apply after the merge)`,
      file: d.file,
      line: d.line,
      column: d.column,
      cascaded: [],
      blocking: true,
    });
  return roots;
}

/**
 * Validation errors no skill's verdict carries, as repository roots: blocking, or, for errors the base has too in
 * files the change leaves alone (`preExisting`), reported (blocking only when the policy says pre-existing fails).
 */
export function validationRoots(errors: readonly Diagnostic[], preExisting?: boolean): Root[] {
  const found = preExisting !== undefined;
  return errors.map((d) => ({
    id: `validation/${d.code}/${d.file}:${d.line}`,
    kind: "validation",
    skill: "",
    status: found ? "pre-existing" : "new",
    title: `${found ? "Invalid at base too" : "Invalid"}: ${d.code}`,
    message: found
      ? `${d.message} (the base has this error too, in a file this change leaves alone)`
      : d.message,
    file: d.file,
    line: d.line,
    column: d.column,
    cascaded: [],
    blocking: found ? preExisting : true,
  }));
}

/** Findings of the agent's work first, then suite and policy changes, then thresholds; the rest last. */
const KIND_RANK: Record<string, number> = {
  assertion: 0,
  gate: 1,
  trigger: 2,
  "suite-weakened": 3,
  "suite-tightened": 3,
  "policy-weakened": 3,
  threshold: 4,
};

export function sortRoots(roots: Root[]): Root[] {
  return [...roots].sort(
    (a, b) =>
      (KIND_RANK[a.kind] ?? 9) - (KIND_RANK[b.kind] ?? 9) ||
      a.skill.localeCompare(b.skill) ||
      a.file.localeCompare(b.file) ||
      a.line - b.line,
  );
}
