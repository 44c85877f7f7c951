import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { assertionLookup } from "../../detect/assertion-types.js";
import { discoverRepository } from "../../detect/discover.js";
import { parseSkillFile } from "../../detect/skill-file.js";
import "../../grade/assertions/index.js";
import * as assertionRegistry from "../../grade/assertions/registry.js";
import { InputError } from "../../model/index.js";
import { EXIT } from "../../report/exit-codes.js";
import type { CliIO } from "../io.js";

export const INIT_USAGE = `Usage: skillgate init SKILL [--repo DIR] [--force]

Scaffolds an eval suite in SKILL's folder (SKILL: a skill name, its folder, or its SKILL.md):
  evals/meta.json, evals/prompts/example.yaml (one case with a discriminator), evals/trigger-eval.json.
Replace every TODO, then run \`skillgate validate\`.`;

const SKILL_ROOTS = [".claude/skills", ".agents/skills", ".github/skills", ".agent/skills", "skills"];

export async function initCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { repo: { type: "string" }, force: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.stdout(`${INIT_USAGE}\n`);
    return EXIT.pass;
  }
  if (positionals.length !== 1) throw new InputError(`init takes one skill\n${INIT_USAGE}`);
  const repoDir = resolve(values.repo ?? ".");
  const skillDir = findSkillDir(repoDir, positionals[0]!);
  const skillFile = join(skillDir, "SKILL.md");
  const rel = relative(repoDir, skillFile).split("\\").join("/");
  const parsed = parseSkillFile(rel, readFileSync(skillFile, "utf8"), "claude-code");
  const name = parsed.name ?? basename(skillDir);
  const version = parsed.version ?? "1";
  const evalsDir = join(skillDir, "evals");
  const files: Record<string, string> = {
    "meta.json": `${JSON.stringify(
      {
        skillVersion: version,
        suiteVersion: version,
        trials: 3,
        thresholds: {
          discriminatorPassRate: 0.8,
          discriminatorLift: 0.3,
          triggerPrecision: 0.8,
          triggerRecall: 0.8,
        },
      },
      null,
      2,
    )}\n`,
    "prompts/example.yaml": `# One case of the ${name} suite. Add more files like this one in prompts/.
# A discriminator (id starting D:) traps the single most tempting wrong answer an agent gives without the skill:
# test for the absence of that answer, not for one exact right answer.
id: example
prompt: "TODO: a realistic task where an agent without the ${name} skill gives a confident wrong answer"
assertions:
  - id: D:avoids-tempting-wrong-answer
    type: not-contains
    value: "TODO: the wrong answer a naive agent gives"
  - id: activated
    type: skill-used
`,
    "trigger-eval.json": `${JSON.stringify(
      {
        shouldFire: Array.from({ length: 10 }, (_, i) => ({
          prompt: `TODO: prompt ${i + 1} that should activate ${name}`,
        })),
        shouldNotFire: Array.from({ length: 10 }, (_, i) => ({
          prompt: `TODO: near-miss prompt ${i + 1} that must not activate ${name}`,
        })),
      },
      null,
      2,
    )}\n`,
  };
  const existing = Object.keys(files).filter((f) => existsSync(join(evalsDir, f)));
  if (existing.length && !values.force)
    throw new InputError(
      `${relative(repoDir, evalsDir)} already has ${existing.join(", ")}; pass --force to overwrite`,
    );
  for (const [f, content] of Object.entries(files)) {
    mkdirSync(dirname(join(evalsDir, f)), { recursive: true });
    writeFileSync(join(evalsDir, f), content);
    io.stdout(`created ${relative(repoDir, join(evalsDir, f)).split("\\").join("/")}\n`);
  }
  io.stdout(`Replace the TODOs, then run: skillgate validate --repo ${values.repo ?? "."}\n`);
  return EXIT.pass;
}

function findSkillDir(repoDir: string, arg: string): string {
  const direct = resolve(repoDir, arg);
  if (existsSync(direct)) {
    const dir = statSync(direct).isDirectory() ? direct : dirname(direct);
    if (existsSync(join(dir, "SKILL.md"))) return dir;
  }
  for (const root of SKILL_ROOTS) {
    const dir = join(repoDir, root, arg);
    if (existsSync(join(dir, "SKILL.md"))) return dir;
  }
  // Any layout: a plugin's skill (`plugin:name`), a grouped or curated one.
  const found = discoverRepository(repoDir, {
    profile: "claude-code",
    assertionTypes: assertionLookup(assertionRegistry),
  }).skills.filter((s) => s.name === arg || s.name.endsWith(`:${arg}`));
  if (found.length === 1) return join(repoDir, found[0]!.dir);
  throw new InputError(
    found.length > 1
      ? `\`${arg}\` names ${found.length} skills (${found.map((s) => s.name).join(", ")}): give the full name or the folder`
      : `no skill \`${arg}\`: no SKILL.md at ${arg}/ and no skill of that name in the repository`,
  );
}
