import { assertionLookup } from "../../detect/assertion-types.js";
import { discoverRepository } from "../../detect/discover.js";
import "../../grade/assertions/index.js";
import * as assertionRegistry from "../../grade/assertions/registry.js";
import { nearDuplicateWarnings } from "../../grade/lexical-router.js";
import { formatDiagnostic, InputError, type ValidationProfile } from "../../model/index.js";
import { EXIT } from "../../report/exit-codes.js";
import { loadConfig } from "../../settings/config.js";
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
  let globs: string[] | undefined;
  let include: string[] | undefined;
  let exclude: string[] | undefined;
  try {
    const { config } = loadConfig(repoDir, values.config);
    if (!values.profile && config.profile) profile = config.profile;
    globs = config.skills?.globs;
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
  diagnostics.push(...found.diagnostics, ...nearDuplicateWarnings(found.skills));
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  if (values.json) {
    io.stdout(
      `${JSON.stringify({ profile, skills: found.skills.map((s) => ({ name: s.name, path: s.path, suite: s.suite?.root ?? null, cases: s.suite?.cases.length ?? 0, triggerQueries: (s.suite?.trigger?.shouldFire.length ?? 0) + (s.suite?.trigger?.shouldNotFire.length ?? 0) })), diagnostics, errors, warnings }, null, 2)}\n`,
    );
  } else {
    for (const d of diagnostics) io.stdout(`${formatDiagnostic(d)}\n`);
    const suites = found.skills.filter((s) => s.suite).length;
    io.stdout(
      `${found.skills.length} skill(s), ${suites} suite(s) checked under the ${profile} profile: ${errors} error(s), ${warnings} warning(s)\n`,
    );
  }
  return errors > 0 ? EXIT.usage : EXIT.pass;
}
