import type { Report, Root, SkillReport } from "../model/report.js";

/**
 * JUnit XML (the de-facto schema read by CI test reporters): one `<testsuite>` per skill, one `<testcase>` per
 * discriminator assertion, trigger query and gate, plus one per root that none of those covers. A blocking root
 * makes its test case fail; an error verdict adds an `<error>` case. Pure: Report → string.
 */

/** XML 1.0 forbids most control characters even escaped; they are dropped. */
function escapeXml(value: unknown): string {
  return String(value ?? "")
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(
      /[<>&"']/g,
      (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!,
    );
}

interface Case {
  name: string;
  classname: string;
  file: string;
  line: number;
  failure?: { message: string; body: string };
  skipped?: string;
}

function rootFailure(r: Root): { message: string; body: string } {
  return {
    message: `${r.status} ${r.kind} root: ${r.title}`,
    body: [
      r.message,
      r.head ? `head: ${r.head.failed}/${r.head.trials} trials failed` : "",
      r.base ? `base: ${r.base.failed}/${r.base.trials} trials failed` : "",
      r.cascaded.length ? `cascaded: ${r.cascaded.join(", ")}` : "",
      `at ${r.file}:${r.line}:${r.column}`,
    ]
      .filter(Boolean)
      .join("\n"),
  };
}

function skillCases(s: SkillReport): Case[] {
  const classname = `skillgate.${s.name}`;
  const blockingById = new Map(s.roots.filter((r) => r.blocking).map((r) => [r.id, r]));
  const covered = new Set<string>();
  const cases: Case[] = [];
  for (const a of s.discriminator?.assertions ?? []) {
    const root = blockingById.get(a.checkId);
    if (root) covered.add(root.id);
    cases.push({
      name: a.checkId,
      classname: `${classname}.assertions`,
      file: a.file,
      line: a.line,
      failure: root ? rootFailure(root) : undefined,
    });
  }
  for (const q of s.trigger?.queries ?? []) {
    const root = blockingById.get(q.checkId);
    if (root) covered.add(root.id);
    cases.push({
      name: `${q.checkId}: ${q.prompt.slice(0, 80)}`,
      classname: `${classname}.trigger`,
      file: q.file,
      line: q.line,
      failure: root
        ? rootFailure(root)
        : q.passed
          ? undefined
          : {
              message: `should ${q.shouldFire ? "" : "not "}fire; fired ${q.fired}/${q.runs}`,
              body: q.prompt,
            },
    });
  }
  for (const g of s.gates) {
    const id = `${g.caseId}/${g.assertionId}`;
    const root = blockingById.get(id);
    if (root) covered.add(root.id);
    const failed = g.checks.filter((c) => !c.passed);
    cases.push({
      name: `gate ${g.gate}: ${id}`,
      classname: `${classname}.gates`,
      file: g.module,
      line: 1,
      failure: g.passed
        ? undefined
        : {
            message: failed[0]?.message ?? `gate ${g.gate} failed`,
            body:
              failed.map((c) => `${c.id}: ${c.message}`).join("\n") +
              (g.seed !== undefined ? `\nseed ${g.seed}` : ""),
          },
    });
  }
  for (const r of s.roots) {
    if (covered.has(r.id)) continue;
    cases.push({
      name: r.id,
      classname: `${classname}.roots`,
      file: r.file,
      line: r.line,
      failure: r.blocking ? rootFailure(r) : undefined,
      skipped: r.blocking ? undefined : `non-blocking ${r.status} root: ${r.title}`,
    });
  }
  if (s.verdict === "error") {
    cases.push({
      name: "evaluation",
      classname,
      file: s.path,
      line: 1,
      failure: {
        message: "evaluation error",
        body: s.errors.map((e) => `${e.kind} ×${e.count}: ${e.message}`).join("\n"),
      },
    });
  }
  return cases;
}

function renderCase(c: Case): string {
  const attrs = `name="${escapeXml(c.name)}" classname="${escapeXml(c.classname)}" file="${escapeXml(c.file)}" line="${c.line}"`;
  if (c.failure)
    return `    <testcase ${attrs}>\n      <failure message="${escapeXml(c.failure.message)}" type="skillgate">${escapeXml(c.failure.body)}</failure>\n    </testcase>`;
  if (c.skipped)
    return `    <testcase ${attrs}>\n      <skipped message="${escapeXml(c.skipped)}"/>\n    </testcase>`;
  return `    <testcase ${attrs}/>`;
}

export function renderJUnit(report: Report): string {
  const suites = report.skills.map((s) => ({ s, cases: skillCases(s) }));
  if (report.verdict === "error" && report.errors.length) {
    suites.push({
      s: undefined as unknown as SkillReport,
      cases: [
        {
          name: "run",
          classname: "skillgate",
          file: ".",
          line: 1,
          failure: { message: "skillgate run error", body: report.errors.join("\n") },
        },
      ],
    });
  }
  const count = (cs: Case[], f: (c: Case) => boolean) => cs.filter(f).length;
  const all = suites.flatMap((x) => x.cases);
  const seconds = (report.durationMs / 1000).toFixed(3);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="skillgate" tests="${all.length}" failures="${count(all, (c) => !!c.failure)}" skipped="${count(all, (c) => !!c.skipped)}" time="${seconds}">`,
  ];
  for (const { s, cases } of suites) {
    const name = s ? s.name : "skillgate";
    lines.push(
      `  <testsuite name="${escapeXml(name)}" tests="${cases.length}" failures="${count(cases, (c) => !!c.failure)}" skipped="${count(cases, (c) => !!c.skipped)}" timestamp="${escapeXml(report.startedAt)}"${s ? ` file="${escapeXml(s.path)}"` : ""}>`,
    );
    lines.push(...cases.map(renderCase));
    lines.push("  </testsuite>");
  }
  lines.push("</testsuites>", "");
  return lines.join("\n");
}
