#!/usr/bin/env node
// Day one on real repositories (#28), measured: `validate` and `plan` of a built CLI over checkouts of public skill
// repositories. A dev tool run by hand, never from a test (it reads outside the repository).
//
//   node scripts/measure-real-repos.mjs [--cli dist/cli.js] [--repos /tmp/rr] [--json FILE] [--only NAME,...] [--no-plan]
//   node scripts/measure-real-repos.mjs --extract [--mirror /work/.mirror] [--repos /tmp/rr]
//
// `--extract` writes each mirrored repository's HEAD tree (git archive, blobs missing from the mirror left out) into
// `--repos`. Per repository it reports: skills found; validate's errors (by code), warnings and notices under the
// default profile; eval files (every file in a layout or format skillgate reads, or one that looks like an eval file by its name or its content)
// attached to a skill's suite, named in a diagnostic, or neither; skills with trigger queries and how many of them
// `plan` gives trigger trials; cases read and skills that plan discriminator trials. `--no-plan` runs `validate`
// only (the eval-file figures need nothing else; `plan` of a 100,000-file registry takes minutes).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, posix, relative, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    cli: { type: "string", default: "dist/cli.js" },
    repos: { type: "string", default: "/tmp/rr" },
    mirror: { type: "string", default: "/work/.mirror" },
    json: { type: "string" },
    only: { type: "string" },
    extract: { type: "boolean" },
    "no-plan": { type: "boolean" },
  },
});

// A run's records (an optimiser's `experiments/<time>/results.json`, `traces/iter_N.json` that repeat the queries with
// their outcomes) and a scenario's inputs (`context/`, copied into its workspace), as skillgate's own list has them.
const OUTPUT_OR_INPUT =
  /(^|\/)(fixtures?|_fixtures|files|results|runs|outputs|workspace|assets|logs|experiments|traces|context|iteration-\d+|[^/]*-workspace)\//;

const isTriggerItem = (q) =>
  !!q &&
  typeof q === "object" &&
  typeof q.should_trigger === "boolean" &&
  typeof (q.query ?? q.prompt ?? q.input) === "string";
const isTriggerList = (x) => Array.isArray(x) && x.length > 0 && x.every(isTriggerItem);
const isPromptList = (x) =>
  Array.isArray(x) && x.length > 0 && x.every((e) => e && typeof e.prompt === "string");

if (values.extract) {
  extract(values.mirror, values.repos);
  process.exit(0);
}

const cli = resolve(values.cli);
const only = values.only ? new Set(values.only.split(",")) : undefined;
const names = readdirSync(values.repos)
  .filter((n) => !only || only.has(n))
  .sort();
// The same agent for every repository: `plan` needs one to forecast, and runs nothing.
const config = join(values.repos, "..", "rr-measure-config.yml");
writeFileSync(config, 'agent:\n  adapter: command\n  command: "cat"\n');

const rows = [];
for (const name of names) {
  process.stderr.write(`${name}\n`);
  rows.push(measure(name, join(values.repos, name)));
}
printTable(rows);
if (values.json) writeFileSync(values.json, `${JSON.stringify(rows, null, 2)}\n`);

function measure(name, dir) {
  const v = run(["validate", "--repo", dir, "--json"]);
  const validation = JSON.parse(v.stdout);
  const planFile = join(values.repos, "..", `rr-plan-${name}.json`);
  rmSync(planFile, { force: true });
  const p = values["no-plan"]
    ? { status: 0 }
    : run(["plan", "--repo", dir, "--config", config, "--json", planFile]);
  const plan = existsSync(planFile)
    ? JSON.parse(execFileSync("cat", [planFile], { encoding: "utf8" }))
    : undefined;
  const lines = plan?.forecast.lines ?? [];
  const planned = (skill, battery) =>
    lines.some((l) => l.skill === skill && l.battery === battery && l.trials > 0);
  const skills = validation.skills;
  const evalFiles = listEvalFiles(dir);
  const attached = new Set();
  for (const s of skills) {
    // `suiteFiles` is in the JSON since #28; before it, a file under the suite's folder counts as attached.
    if (s.suiteFiles) for (const f of s.suiteFiles) attached.add(f);
    else if (s.suite) for (const f of evalFiles) if (f.startsWith(`${s.suite}/`)) attached.add(f);
  }
  const named = new Set(validation.diagnostics.map((d) => d.file));
  const unaccounted = evalFiles.filter((f) => !attached.has(f) && !named.has(f));
  const byCode = {};
  for (const d of validation.diagnostics)
    if (d.severity === "error") byCode[d.code] = (byCode[d.code] ?? 0) + 1;
  const withTriggers = skills.filter((s) => s.triggerQueries > 0);
  const withCases = skills.filter((s) => s.cases > 0);
  return {
    repo: name,
    validateExit: v.status,
    planExit: p.status,
    planError: p.status === 0 ? undefined : (p.stderr || p.stdout).trim().split("\n").slice(-1)[0],
    skills: skills.length,
    errors: validation.errors,
    warnings: validation.warnings,
    notices: validation.notices,
    errorsByCode: byCode,
    evalFiles: evalFiles.length,
    evalFilesAttached: evalFiles.filter((f) => attached.has(f)).length,
    evalFilesNamed: evalFiles.filter((f) => !attached.has(f) && named.has(f)).length,
    evalFilesUnaccounted: unaccounted,
    cases: skills.reduce((n, s) => n + s.cases, 0),
    skillsWithCases: withCases.length,
    skillsPlanningCases: withCases.filter((s) => planned(s.name, "discriminator")).length,
    triggerQueries: skills.reduce((n, s) => n + s.triggerQueries, 0),
    skillsWithTriggers: withTriggers.length,
    skillsPlanningTriggers: withTriggers.filter((s) => planned(s.name, "trigger")).length,
  };
}

function run(args) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", maxBuffer: 256 << 20 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Files in a layout skillgate reads, named like an eval file (an `evals/` folder's data files, `evals-*.json`), or
 * an eval set by its content wherever it is and whatever its name (a JSON list of `{query, should_trigger}`, such a
 * list under a key, an `evals` list of prompts). What a run wrote (skill-creator's `<skill>-workspace/iteration-N/`,
 * results, logs) and what a case copies in (fixtures) are no eval sets.
 */
function listEvalFiles(dir) {
  const out = [];
  const walk = (rel) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (![".git", "node_modules"].includes(e.name)) walk(p);
      } else if (
        e.isFile() &&
        !OUTPUT_OR_INPUT.test(p) &&
        (looksLikeEvalFile(p) || wazaTask(dir, p) || evalSetByContent(join(dir, p)))
      )
        out.push(p);
    }
  };
  walk("");
  return out.sort();
}

function looksLikeEvalFile(p) {
  const base = posix.basename(p);
  if (/^(evals\.json|eval\.ya?ml|trigger_tests\.ya?ml|trigger-eval\.json|meta\.json)$/.test(base))
    return base !== "meta.json" || /(^|\/)evals\//.test(p);
  if (/^evals?[-_].+\.json$/.test(base)) return true;
  // An eval file named for what it tests (`vm-creator.eval.yaml`, `routing-eval.yaml`).
  if (/[-_.]evals?\.(json|ya?ml)$/i.test(base)) return true;
  if (/^(trigger[-_]?evals?|triggers?|trigger[-_]?queries|eval[-_]?set)\.json$/i.test(base)) return true;
  // Data files of an evals/ folder (a case per file, prompts/, assertions/).
  return /(^|\/)evals\/[^.]*\.(json|ya?ml)$/i.test(p);
}

/** A waza task file: `tasks/*.yaml` beside the `eval.yaml` that lists it. */
function wazaTask(dir, p) {
  return (
    /(^|\/)tasks\/[^/]+\.ya?ml$/.test(p) &&
    existsSync(join(dir, posix.dirname(posix.dirname(p)), "eval.yaml"))
  );
}

/** A JSON eval set by its content: trigger queries (a list, or a list under a key), or an `evals` list of prompts. */
function evalSetByContent(abs) {
  if (!abs.endsWith(".json") || statSync(abs).size > 1 << 20) return false;
  try {
    const v = JSON.parse(readFileSync(abs, "utf8"));
    if (Array.isArray(v)) return isTriggerList(v);
    return !!v && typeof v === "object" && (Object.values(v).some(isTriggerList) || isPromptList(v.evals));
  } catch {
    return false;
  }
}

function printTable(rows) {
  const cols = [
    ["repo", (r) => r.repo],
    ["skills", (r) => r.skills],
    ["exit", (r) => r.validateExit],
    ["errors", (r) => r.errors],
    ["warn", (r) => r.warnings],
    ["notice", (r) => r.notices],
    ["evalF", (r) => r.evalFiles],
    ["attach", (r) => r.evalFilesAttached],
    ["named", (r) => r.evalFilesNamed],
    ["silent", (r) => r.evalFilesUnaccounted.length],
    ["cases", (r) => r.cases],
    ["casePlan", (r) => `${r.skillsPlanningCases}/${r.skillsWithCases}`],
    ["trigQ", (r) => r.triggerQueries],
    ["trigPlan", (r) => `${r.skillsPlanningTriggers}/${r.skillsWithTriggers}`],
  ];
  const cells = rows.map((r) => cols.map(([, f]) => String(f(r))));
  const widths = cols.map(([h], i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => c.map((x, i) => x.padEnd(widths[i])).join("  ");
  console.log(line(cols.map(([h]) => h)));
  for (const c of cells) console.log(line(c));
  const sum = (f) => rows.reduce((n, r) => n + f(r), 0);
  console.log(
    `\n${rows.length} repositories: validate exit 2 on ${rows.filter((r) => r.validateExit === 2).length}; ${sum((r) => r.errors)} errors; eval files ${sum((r) => r.evalFiles)}, attached ${sum((r) => r.evalFilesAttached)}, named ${sum((r) => r.evalFilesNamed)}, silent ${sum((r) => r.evalFilesUnaccounted.length)}; skills with trigger queries planning trigger trials ${sum((r) => r.skillsPlanningTriggers)}/${sum((r) => r.skillsWithTriggers)}; with cases planning case trials ${sum((r) => r.skillsPlanningCases)}/${sum((r) => r.skillsWithCases)}`,
  );
  for (const r of rows) {
    const codes = Object.entries(r.errorsByCode)
      .sort((a, b) => b[1] - a[1])
      .map(([c, n]) => `${c} ${n}`)
      .join(", ");
    if (codes) console.log(`  ${r.repo} errors: ${codes}`);
    if (r.planError) console.log(`  ${r.repo} plan: ${r.planError}`);
    if (r.evalFilesUnaccounted.length)
      console.log(
        `  ${r.repo} silent eval files: ${r.evalFilesUnaccounted.slice(0, 6).join(", ")}${r.evalFilesUnaccounted.length > 6 ? ", …" : ""}`,
      );
  }
}

/** Each mirror's HEAD tree into `out/<owner+name>`, leaving out blobs the mirror lacks (large files). */
function extract(mirror, out) {
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(mirror).filter((n) => n.includes("+"))) {
    const git = join(mirror, name, "repo");
    if (!existsSync(git)) continue;
    const target = join(out, name);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target);
    const tree = execFileSync("git", ["--git-dir", git, "ls-tree", "-r", "-z", "HEAD"], {
      encoding: "utf8",
      maxBuffer: 256 << 20,
    })
      .split("\0")
      .filter(Boolean)
      .map((l) => ({ object: l.split(/\s/)[2], type: l.split(/\s/)[1], path: l.slice(l.indexOf("\t") + 1) }))
      .filter((e) => e.type === "blob");
    const check = spawnSync("git", ["--git-dir", git, "cat-file", "--batch-check"], {
      input: tree.map((e) => e.object).join("\n"),
      encoding: "utf8",
      maxBuffer: 256 << 20,
    });
    const missing = new Set(
      check.stdout
        .split("\n")
        .filter((l) => l.endsWith(" missing"))
        .map((l) => l.split(" ")[0]),
    );
    const excluded = tree.filter((e) => missing.has(e.object)).map((e) => `:(exclude,literal)${e.path}`);
    const archive = spawnSync("git", ["--git-dir", git, "archive", "HEAD", "--", ".", ...excluded], {
      maxBuffer: 1 << 30,
    });
    execFileSync("tar", ["-x", "-C", target], { input: archive.stdout, maxBuffer: 1 << 30 });
    console.log(`${name}: ${tree.length - missing.size} files (${missing.size} missing from the mirror)`);
  }
  console.log(`extracted into ${relative(process.cwd(), out) || out}`);
}
