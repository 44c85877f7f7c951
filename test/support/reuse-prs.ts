/**
 * Random pull requests over a generated repository of skills (seed suites, skill-creator and waza suite files),
 * as base discovery's tests build them: `baseRepo` the base's files, `applyEdit` one of `EDITS` on skill `i`,
 * `changedPaths` what the PR API lists, `summary` the classification of every skill with the base side's record.
 */
import { dirname } from "node:path";
import { classifyChanges } from "../../src/detect/changes.js";
import type { Discovery } from "../../src/detect/discover.js";

export type Files = Record<string, string>;

export const skillMd = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

export function baseRepo(n: number): Files {
  const files: Files = {};
  for (let i = 0; i < n; i++) {
    const name = `s${i}`;
    const dir = i % 3 === 0 ? `.claude/skills/${name}` : `skills/${name}`;
    files[`${dir}/SKILL.md`] = skillMd(name, `Does task ${i}. Use for topic ${i}.`, `Steps ${i}`);
    files[`${dir}/ref.md`] = `ref ${i}`;
    if (i % 2 === 0) {
      files[`.agent/evals/${name}/meta.json`] = '{"trials": 3}';
      files[`.agent/evals/${name}/prompts/c1.yaml`] =
        `id: c1\nprompt: do ${i}\nassertions:\n  - id: D:says\n    type: contains\n    value: "${i}"\n`;
      files[`.agent/evals/${name}/trigger-eval.json`] = JSON.stringify({
        shouldFire: [`topic ${i}`],
        shouldNotFire: ["a poem"],
      });
    } else if (i % 5 === 1) {
      files[`${dir}/evals/evals.json`] = JSON.stringify({
        skill_name: name,
        evals: [{ id: 1, prompt: `p ${i}`, expectations: ["works"] }],
      });
    } else if (i % 5 === 3) {
      // waza's project layout: a suite away from the skill, found by its folder and its `skill`.
      files[`evals/${name}/trigger_tests.yaml`] = `skill: ${name}\nshould_trigger_prompts: [topic ${i}]\n`;
    }
  }
  return files;
}

/** One edit a PR can make to skill `i` of the base repository. */
export const EDITS = [
  "body",
  "description",
  "ref",
  "add-file",
  "delete-skill",
  "suite-prompt",
  "suite-delete",
  "suite-add",
  "in-folder-suite",
  "rename",
  "named-suite-delete",
  "named-suite-add",
] as const;
export type Edit = (typeof EDITS)[number];

export function applyEdit(files: Files, i: number, edit: Edit): void {
  const name = `s${i}`;
  const path = Object.keys(files).find((p) => p.endsWith(`/${name}/SKILL.md`));
  if (!path) return;
  const dir = dirname(path);
  const inDir = (f: string) => f.startsWith(`${dir}/`);
  switch (edit) {
    case "body":
      files[path] = `${files[path]}More steps.\n`;
      break;
    case "description":
      files[path] = files[path]!.replace(/description: .*/, `description: Changed text for ${i}.`);
      break;
    case "ref":
      files[`${dir}/ref.md`] = `${files[`${dir}/ref.md`] ?? ""} edited`;
      break;
    case "add-file":
      files[`${dir}/scripts/run.sh`] = "echo hi";
      break;
    case "delete-skill":
      for (const f of Object.keys(files)) if (inDir(f)) delete files[f];
      break;
    case "suite-prompt":
      if (files[`.agent/evals/${name}/prompts/c1.yaml`])
        files[`.agent/evals/${name}/prompts/c1.yaml`] = `id: c1\nprompt: do ${i} differently\n`;
      break;
    case "suite-delete":
      for (const f of Object.keys(files)) if (f.startsWith(`.agent/evals/${name}/`)) delete files[f];
      break;
    case "suite-add":
      files[`.agent/evals/${name}/trigger-eval.json`] = JSON.stringify({
        shouldFire: [`new topic ${i}`],
        shouldNotFire: ["taxes"],
      });
      break;
    case "in-folder-suite":
      if (files[`${dir}/evals/evals.json`])
        files[`${dir}/evals/evals.json`] = files[`${dir}/evals/evals.json`]!.replace("works", "works well");
      break;
    case "named-suite-delete":
      delete files[`evals/${name}/trigger_tests.yaml`];
      break;
    case "named-suite-add":
      // A skill-creator file anywhere that names the skill.
      files[`shared-evals/${name}/evals.json`] = JSON.stringify({
        skill_name: name,
        evals: [{ id: 9, prompt: `named ${i}`, assertions: [{ id: "a", type: "contains", value: `${i}` }] }],
      });
      break;
    case "rename": {
      const to = `${dirname(dir)}/${name}-renamed`;
      for (const f of Object.keys(files))
        if (inDir(f)) {
          files[`${to}/${f.slice(dir.length + 1)}`] = files[f]!.replace(
            `name: ${name}\n`,
            `name: ${name}-renamed\n`,
          );
          delete files[f];
        }
      break;
    }
  }
}

/** What the PR API lists: every path added, removed or modified. */
export function changedPaths(a: Files, b: Files): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((p) => a[p] !== b[p]).sort();
}

export const summary = (d: Discovery, other: Discovery, changed?: string[]) =>
  classifyChanges(
    { dir: d.repoDir, skills: d.skills },
    { dir: other.repoDir, skills: other.skills },
    changed,
  ).map((c) => ({
    name: c.name,
    change: c.change,
    batteries: c.batteries,
    suiteChanged: c.suiteChanged,
    descriptionChanged: c.descriptionChanged,
    bodyChanged: c.bodyChanged,
    renamedFrom: c.renamedFrom,
    baseHash: c.base?.folder.contentHash,
    baseCases: c.base?.suite?.cases.map((x) => x.prompt),
    baseTrigger: c.base?.suite?.trigger?.shouldFire.map((q) => q.prompt),
  }));
