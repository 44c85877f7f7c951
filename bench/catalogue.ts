/**
 * Generated skill catalogues in the shapes public registries have (issue #42): skills in `skills/<s>/`,
 * `.claude/skills/<s>/`, plugins (`plugins/<p>/skills/<s>/` with `.claude-plugin/plugin.json`) and category
 * folders (`catalog/<category>/<s>/`); frontmatter written every way authors write it (plain, quoted, folded and
 * literal block descriptions, a value Claude Code reads only after quoting, license, allowed-tools as a string or a
 * list, metadata, Claude-Code-only keys); bodies of a few lines to a few KB; reference files, scripts and nested
 * assets beside some; a few near-duplicate descriptions; and a few suites (seed format with cases and a trigger
 * set, skill-creator's `evals/evals.json`). All text is made up here from a seeded word list: same seed, same bytes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { seededRandom } from "../src/util/random.js";

export interface GeneratedSkill {
  /** The name the agent knows (`plugin:name` for a plugin's skill). */
  name: string;
  /** Folder of its SKILL.md, repository-relative. */
  dir: string;
  /** The frontmatter `name`. */
  local: string;
  plugin?: string;
  description: string;
  /** Its seed-format suite folder, when it has one with a trigger set. */
  suiteDir?: string;
  /** Its should-fire prompts, when it has a trigger set. */
  shouldFire?: string[];
}

export interface Catalogue {
  skills: GeneratedSkill[];
  /** Skills with a seed-format suite and trigger set. */
  withTriggerSet: GeneratedSkill[];
  files: number;
}

/** Share of skills with an eval suite: registries hold few (most skills have none). */
const SUITE_EVERY = 50;
const PLUGIN_SHARE = 0.25;
const GROUPED_SHARE = 0.2;
const CLAUDE_SHARE = 0.1;

const COMMON = (
  "data file report table chart query database api service deploy build test review code docs pdf image video " +
  "audio text email calendar invoice budget ledger account user team project task issue release branch commit " +
  "schema migration index cache queue log metric alert dashboard config secret token policy contract template " +
  "form survey spreadsheet slide diagram translation summary outline draft note meeting plan roadmap spec design " +
  "layout style theme component page site server cluster container network storage backup archive export import"
).split(" ");
const VERBS = (
  "create generate analyse audit convert summarise validate format refactor deploy monitor debug translate " +
  "extract merge split compare review optimise document migrate schedule classify search rank clean plot render " +
  "package publish lint benchmark profile sanitise redact encrypt sign verify"
).split(" ");
const SITUATIONS = [
  "the user asks about",
  "working with",
  "a task involves",
  "someone needs to",
  "the request mentions",
  "you are asked to handle",
  "preparing",
  "a team wants help with",
];

/** Pronounceable made-up words: a vocabulary as wide as a real registry's, owned by nobody. */
function makeWords(random: () => number, count: number): string[] {
  const onset = [
    "b",
    "c",
    "d",
    "f",
    "g",
    "k",
    "l",
    "m",
    "n",
    "p",
    "r",
    "s",
    "t",
    "v",
    "z",
    "st",
    "tr",
    "pl",
    "gr",
  ];
  const vowel = ["a", "e", "i", "o", "u", "ai", "ou", "ea"];
  const coda = ["", "n", "r", "s", "x", "l", "nd", "rk", "st"];
  const words = new Set<string>();
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  while (words.size < count) {
    const syllables = 2 + Math.floor(random() * 2);
    let w = "";
    for (let i = 0; i < syllables; i++)
      w += pick(onset) + pick(vowel) + (i === syllables - 1 ? pick(coda) : "");
    words.add(w);
  }
  return [...words];
}

class Writer {
  files = 0;
  constructor(private readonly root: string) {}
  put(rel: string, text: string, mode?: number): void {
    const abs = join(this.root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text, mode ? { mode } : undefined);
    this.files++;
  }
}

/** The description's frontmatter line(s), in one of the ways authors write them. */
function descriptionYaml(text: string, style: number): string {
  if (style < 0.5) return `description: ${text.replace(/: /g, " - ")}`;
  if (style < 0.65) return `description: "${text.replace(/"/g, "'")}"`;
  if (style < 0.75) return `description: '${text.replace(/'/g, "''")}'`;
  if (style < 0.88) return `description: >-\n${wrap(text, 70, "  ")}`;
  if (style < 0.95) return `description: |\n${wrap(text, 80, "  ")}`;
  // Invalid YAML that Claude Code reads after quoting (`Reads PDFs: forms, tables`): a warning, not an error.
  return `description: ${text.replace(/\. /, ": ")}`;
}

function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = "";
  for (const w of text.split(" ")) {
    if (line && line.length + w.length + 1 > width) {
      lines.push(indent + line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(indent + line);
  return lines.join("\n");
}

/**
 * Writes a catalogue of `count` skills under `root` (which must not exist or be empty) and says what it wrote.
 * Deterministic in (`count`, `seed`).
 */
export function writeCatalogue(root: string, count: number, seed = 42): Catalogue {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const words = makeWords(random, Math.max(400, Math.min(20_000, count * 2)));
  const out = new Writer(root);
  const skills: GeneratedSkill[] = [];
  const withTriggerSet: GeneratedSkill[] = [];
  const categories = Array.from({ length: 30 }, (_, i) => `${pick(words)}-${i}`);
  let plugin: { name: string; left: number } | undefined;
  const phrase = (n: number) =>
    Array.from({ length: n }, () => (random() < 0.5 ? pick(COMMON) : pick(words)));
  for (let i = 0; i < count; i++) {
    const local = `${pick(words)}-${pick(COMMON)}-${i.toString(36)}`;
    const where = random();
    let dir: string;
    let name = local;
    let pluginName: string | undefined;
    if (where < PLUGIN_SHARE) {
      if (!plugin || plugin.left === 0) {
        plugin = { name: `${pick(words)}-tools-${i.toString(36)}`, left: 2 + Math.floor(random() * 11) };
        out.put(
          `plugins/${plugin.name}/.claude-plugin/plugin.json`,
          `${JSON.stringify({ name: plugin.name, version: "1.0.0", description: `Tools for ${phrase(3).join(" ")}` }, null, 2)}\n`,
        );
      }
      plugin.left--;
      pluginName = plugin.name;
      dir = `plugins/${plugin.name}/skills/${local}`;
      name = `${plugin.name}:${local}`;
    } else if (where < PLUGIN_SHARE + GROUPED_SHARE) dir = `catalog/${pick(categories)}/${local}`;
    else if (where < PLUGIN_SHARE + GROUPED_SHARE + CLAUDE_SHARE) dir = `.claude/skills/${local}`;
    else dir = `skills/${local}`;
    const topic = phrase(2 + Math.floor(random() * 3)).join(" ");
    let description = `${pick(VERBS)[0]!.toUpperCase()}${pick(VERBS).slice(1)} ${topic} ${pick(COMMON)}s. Use when ${pick(SITUATIONS)} ${phrase(2 + Math.floor(random() * 4)).join(" ")}.`;
    if (random() < 0.3) description += ` Covers ${phrase(3 + Math.floor(random() * 12)).join(", ")}.`;
    // A few near-duplicates: another skill's description with one word changed (registries hold forks).
    if (skills.length > 10 && random() < 0.01) {
      const other = pick(skills).description.split(" ");
      other[Math.floor(random() * other.length)] = pick(words);
      description = other.join(" ");
    }
    const fm = [`name: ${local}`, descriptionYaml(description, random())];
    if (random() < 0.3) fm.push(`license: ${pick(["MIT", "Apache-2.0", "Complete terms in LICENSE.txt"])}`);
    if (random() < 0.1) fm.push("allowed-tools: Read, Grep, Glob");
    // biome-ignore lint/suspicious/noDuplicateElseIf: a second draw, not the same condition
    else if (random() < 0.1) fm.push("allowed-tools:\n  - Read\n  - Bash(git status)");
    if (random() < 0.25)
      fm.push(
        `metadata:\n  version: "${1 + Math.floor(random() * 3)}.${Math.floor(random() * 10)}.0"\n  author: ${pick(words)}`,
      );
    if (random() < 0.05) fm.push(`when_to_use: When ${phrase(4).join(" ")} comes up.`);
    if (random() < 0.05) fm.push(`model: ${pick(["sonnet", "opus", "haiku"])}`);
    if (random() < 0.03) fm.push(`argument-hint: "[${pick(COMMON)}]"`);
    const body = bodyText(random, phrase, local);
    out.put(`${dir}/SKILL.md`, `---\n${fm.join("\n")}\n---\n${body}`);
    const extra = random();
    if (extra < 0.3) out.put(`${dir}/reference.md`, `# Reference\n\n${phrase(60).join(" ")}\n`);
    if (extra < 0.15)
      out.put(`${dir}/scripts/run.sh`, `#!/bin/sh\necho ${JSON.stringify(phrase(3).join(" "))}\n`, 0o755);
    if (extra > 0.9) out.put(`${dir}/templates/report.md`, `# ${topic}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n`);
    if (extra > 0.97)
      out.put(`${dir}/assets/examples/${pick(COMMON)}/sample.json`, `${JSON.stringify({ topic })}\n`);
    const skill: GeneratedSkill = {
      name,
      dir,
      local,
      description,
      ...(pluginName ? { plugin: pluginName } : {}),
    };
    if (i % SUITE_EVERY === 7) writeSeedSuite(out, skill, phrase);
    else if (i % SUITE_EVERY === 31) writeSkillCreatorSuite(out, skill, phrase);
    skills.push(skill);
    if (skill.suiteDir) withTriggerSet.push(skill);
  }
  out.put("README.md", `# A catalogue of ${count} skills\n`);
  return { skills, withTriggerSet, files: out.files };
}

function bodyText(random: () => number, phrase: (n: number) => string[], local: string): string {
  const parts = [`# ${local}\n`];
  const sections = 1 + Math.floor(random() * 6);
  for (let s = 0; s < sections; s++) {
    parts.push(`## ${phrase(3).join(" ")}\n`);
    parts.push(`${phrase(10 + Math.floor(random() * 60)).join(" ")}.\n`);
    if (random() < 0.5)
      parts.push(`${Array.from({ length: 3 }, () => `- ${phrase(6).join(" ")}`).join("\n")}\n`);
    if (random() < 0.2) parts.push(`\`\`\`sh\n${phrase(2).join("-")} --${phrase(1)[0]} input.txt\n\`\`\`\n`);
  }
  return parts.join("\n");
}

/** `.agent/evals/<name>/` (`<plugin>/<name>` for a plugin's skill): two cases and a trigger set of 5 + 5. */
function writeSeedSuite(out: Writer, skill: GeneratedSkill, phrase: (n: number) => string[]): void {
  const dir = skill.plugin ? `.agent/evals/${skill.plugin}/${skill.local}` : `.agent/evals/${skill.local}`;
  out.put(`${dir}/meta.json`, `${JSON.stringify({ suiteVersion: "1.0", trials: 3 }, null, 2)}\n`);
  for (const c of ["first", "second"])
    out.put(
      `${dir}/prompts/${c}.yaml`,
      `id: ${c}\nprompt: Please ${phrase(8).join(" ")} and answer with a number.\nassertions:\n  - id: answers\n    type: contains\n    value: "42"\n`,
    );
  const shouldFire = Array.from({ length: 5 }, () => `${skill.local.split("-")[0]} ${phrase(6).join(" ")}`);
  const shouldNotFire = Array.from({ length: 5 }, () => `${phrase(7).join(" ")} please`);
  out.put(`${dir}/trigger-eval.json`, `${JSON.stringify({ shouldFire, shouldNotFire }, null, 2)}\n`);
  skill.suiteDir = dir;
  skill.shouldFire = shouldFire;
}

/** skill-creator's `evals/evals.json` in the skill's folder: one case with an assertion of ours. */
function writeSkillCreatorSuite(out: Writer, skill: GeneratedSkill, phrase: (n: number) => string[]): void {
  const evals = {
    skill_name: skill.local,
    evals: [
      {
        id: 1,
        prompt: `Help me ${phrase(7).join(" ")}.`,
        expected_output: "A short answer with the number 42.",
        assertions: [{ id: "answers", type: "contains", value: "42" }],
      },
    ],
  };
  out.put(`${skill.dir}/evals/evals.json`, `${JSON.stringify(evals, null, 2)}\n`);
}

/**
 * The PR of the scale section: `skill`'s description reworded, the rest of its SKILL.md as it was. Returns the
 * new SKILL.md text, read from `root`.
 */
export function rewordDescription(text: string, skill: GeneratedSkill): string {
  const end = text.indexOf("\n---\n", 4);
  const fm = text.slice(4, end).split("\n");
  const at = fm.findIndex((l) => l.startsWith("description:"));
  let stop = at + 1;
  while (stop < fm.length && fm[stop]!.startsWith("  ")) stop++;
  fm.splice(
    at,
    stop - at,
    `description: "${skill.description.replace(/"/g, "'")} Also handles bulk requests."`,
  );
  return `---\n${fm.join("\n")}${text.slice(end)}`;
}
