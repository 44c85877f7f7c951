import { assertionLookup } from "../../detect/assertion-types.js";
import { discoverRepository } from "../../detect/discover.js";
import { withoutJudge } from "../../detect/needs-judge.js";
import { outsideGlobsDiagnostics } from "../../detect/outside-globs.js";
import "../../grade/assertions/index.js";
import { nearDuplicateWarnings } from "../../detect/near-duplicates.js";
import { targetFindings, withoutRepeats } from "../../detect/targets/index.js";
import * as assertionRegistry from "../../grade/assertions/registry.js";
import { formatDiagnostic, InputError, type Target, type ValidationProfile } from "../../model/index.js";
import { EXIT } from "../../report/exit-codes.js";
import { renderValidationSummary, summariseValidation } from "../../report/validation-summary.js";
import { loadConfig } from "../../settings/config.js";
import { resolveTargets } from "../../settings/targets.js";
import { appendAll } from "../../util/append.js";
import type { CliIO } from "../io.js";
import { parseCommandLine, UsageError } from "../usage.js";

export const VALIDATE_USAGE = `Usage: skillgate validate [--repo DIR] [--config FILE] [--profile strict|claude-code] [--glob PATTERN]... [--json]

Checks every SKILL.md, eval suite and .skillgate.yml; prints each problem as file:line:column.
Exit 0 when there is no error (warnings allowed), 2 when there is any.`;

export async function validateCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandLine(argv, {
    options: {
      repo: { type: "string" },
      config: { type: "string" },
      profile: { type: "string" },
      glob: { type: "string", multiple: true },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.stdout(`${VALIDATE_USAGE}\n`);
    return EXIT.pass;
  }
  const repoDir = values.repo ?? ".";
  if (values.profile !== undefined && values.profile !== "strict" && values.profile !== "claude-code")
    throw new UsageError(`--profile must be strict or claude-code (got \`${values.profile}\`)`);
  const diagnostics = [];
  let profile: ValidationProfile = (values.profile as ValidationProfile | undefined) ?? "claude-code";
  let targets: Target[] = resolveTargets({});
  let judgeConfigured = false;
  let globs: string[] | undefined;
  let include: string[] | undefined;
  let exclude: string[] | undefined;
  try {
    const { config, warnings } = loadConfig(repoDir, values.config);
    diagnostics.push(...warnings);
    if (!values.profile && config.profile) profile = config.profile;
    targets = resolveTargets(config);
    globs = config.skills?.globs;
    judgeConfigured = config.judge !== undefined;
    include = config.skills?.include;
    exclude = config.skills?.exclude;
  } catch (e) {
    if (!(e instanceof InputError) || e.diagnostics.length === 0) throw e;
    diagnostics.push(...e.diagnostics);
  }
  if (values.glob?.length) globs = values.glob;
  const found = discoverRepository(repoDir, {
    profile,
    globs,
    include,
    exclude,
    assertionTypes: assertionLookup(assertionRegistry),
  });
  const findings = targetFindings(found.skills, targets, repoDir);
  appendAll(
    diagnostics,
    withoutRepeats(found.diagnostics, findings),
    findings,
    nearDuplicateWarnings(found.skills),
    outsideGlobsDiagnostics(found.outsideGlobs, undefined),
    judgeConfigured ? [] : withoutJudge(found.skills),
  );
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.filter((d) => d.severity === "warning").length;
  const notices = diagnostics.length - errors - warnings;
  const summary = summariseValidation(found.skills, diagnostics);
  if (values.json) {
    const skills = found.skills.map((s) => ({
      name: s.name,
      ...(s.namespace ? { namespace: s.namespace } : {}),
      layout: s.layout,
      path: s.path,
      suite: s.suite?.root ?? null,
      suiteFormats: s.suite?.formats ?? [],
      suiteFiles: s.suite?.sourceFiles ?? [],
      cases: s.suite?.cases.length ?? 0,
      triggerQueries:
        (s.suite?.trigger?.shouldFire.length ?? 0) + (s.suite?.trigger?.shouldNotFire.length ?? 0),
    }));
    io.stdout(
      `${JSON.stringify({ profile, targets, listing: found.files.source, skills, outsideGlobs: found.outsideGlobs, diagnostics, errors, warnings, notices, summary }, null, 2)}\n`,
    );
  } else {
    for (const d of diagnostics) io.stdout(`${formatDiagnostic(d)}\n`);
    const suites = found.skills.filter((s) => s.suite).length;
    if (found.skills.length > 0) io.stdout(`${renderValidationSummary(summary).join("\n")}\n`);
    io.stdout(
      `${found.skills.length} skill(s), ${suites} suite(s) checked under the ${profile} profile for ${targets.join(", ")}: ${errors} error(s), ${warnings} warning(s)${notices ? `, ${notices} notice(s)` : ""}\n`,
    );
  }
  // Nothing to check is said, never a clean pass: a repository with no skill is a usage error (as for `run`).
  if (found.skills.length === 0) {
    if (!values.json)
      io.stdout(
        found.outsideGlobs.length > 0
          ? `no skill within the configured globs; ${found.outsideGlobs.length} SKILL.md file(s) lie outside them\n`
          : `no skill found in ${repoDir}: no SKILL.md file anywhere (git-ignored, vendored and node_modules folders are not read)\n`,
      );
    return EXIT.usage;
  }
  return errors > 0 ? EXIT.usage : EXIT.pass;
}
