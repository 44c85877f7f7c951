/**
 * Issue #18: the fixture repositories under test/fixtures/layouts/ are shaped like each public layout (Agent
 * Skills folders with a linked `.agents/skills`, a Claude Code plugin marketplace, a root skill, grouped skills
 * with waza files beside them, curated dot-folders, waza's project layout, skill-creator's evals.json at the
 * root). Every skill is found once, with its layout and the right suite, no false error, and nothing found or
 * checked-nothing is ever a silent pass.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { assertionLookup } from "../../src/detect/assertion-types.js";
import { discoverRepository } from "../../src/detect/discover.js";
import { outsideGlobsDiagnostics } from "../../src/detect/outside-globs.js";
import "../../src/grade/assertions/index.js";
import * as registry from "../../src/grade/assertions/registry.js";
import { runCli } from "../support/run-cli.js";

const ROOT = join(import.meta.dirname, "../..");
const LAYOUTS = join(ROOT, "test/fixtures/layouts");
const opts = { profile: "claude-code" as const, assertionTypes: assertionLookup(registry), env: {} };

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(d);
  return d;
};
function write(dir: string, files: Record<string, string>): string {
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  return dir;
}
const repo = (files: Record<string, string>) => write(temp("sg-layout-"), files);
/** A copy of a fixture in a plain folder (no git around it): read by one walk. Links stay links. */
function plainCopy(name: string): string {
  const dir = join(temp("sg-plain-"), name);
  cpSync(join(LAYOUTS, name), dir, { recursive: true, verbatimSymlinks: true });
  return dir;
}
const git = (dir: string, ...args: string[]) =>
  execFileSync("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@localhost", ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
const skillMd = (name: string, extra = "") =>
  `---\nname: ${name}\ndescription: Does ${name} work. Use for ${name} tasks.\n${extra}---\nSteps.\n`;

interface ValidateJson {
  listing: string;
  skills: {
    name: string;
    namespace?: string;
    layout: string;
    path: string;
    suite: string | null;
    suiteFormats: string[];
    cases: number;
    triggerQueries: number;
  }[];
  diagnostics: {
    file: string;
    line: number;
    column: number;
    severity: string;
    code: string;
    message: string;
  }[];
  errors: number;
  outsideGlobs: string[];
}

/**
 * `run` with the default agent (replay) on a repository with no recordings yet: the folder exists, so what `run`
 * says is about the suites (a missing recordings folder is a usage error, exit 2, before any suite is read).
 */
function runHere(dir: string, ...args: string[]) {
  mkdirSync(join(dir, ".skillgate/recordings"), { recursive: true });
  return runCli(["run", "--repo", dir, ...args]);
}

async function validate(dir: string, ...args: string[]): Promise<ValidateJson & { code: number }> {
  const r = await runCli(["validate", "--repo", dir, "--json", ...args]);
  return { ...(JSON.parse(r.stdout) as ValidateJson), code: r.code };
}

/** One line per skill: what it is, where, and which suite it got. */
const summary = (v: ValidateJson) =>
  v.skills.map(
    (s) =>
      `${s.name} ${s.layout} ${s.path} suite=${s.suite ?? "-"} ${s.suiteFormats.join("+") || "-"} cases=${s.cases} queries=${s.triggerQueries}`,
  );

const EXPECTED: Record<string, string[]> = {
  "agent-skills": [
    "changelog agent-skills .claude/skills/changelog/SKILL.md suite=.agent/evals/changelog seed cases=1 queries=0",
    "triage agent-skills .github/skills/triage/SKILL.md suite=- - cases=0 queries=0",
    "invoice-totals agent-skills skills/invoice-totals/SKILL.md suite=skills/invoice-totals/evals seed cases=1 queries=3",
    "tenant-sql agent-skills skills/tenant-sql/SKILL.md suite=- - cases=0 queries=0",
  ],
  "plugin-marketplace": [
    "alpha:configure plugin plugins/alpha/skills/configure/SKILL.md suite=plugins/alpha/skills/configure/evals seed cases=1 queries=0",
    "beta:configure plugin plugins/beta/skills/configure/SKILL.md suite=.agent/evals/beta/configure seed cases=0 queries=2",
    "beta:deploy plugin plugins/beta/skills/deploy/SKILL.md suite=plugins/beta/skills/deploy/evals skill-creator cases=1 queries=0",
  ],
  "root-skill": ["pdf-forms root SKILL.md suite=evals skill-creator cases=1 queries=0"],
  grouped: [
    "fit-curve grouped scientific-skills/fit-curve/SKILL.md suite=scientific-skills/fit-curve waza cases=1 queries=3",
    "unit-convert grouped scientific-skills/unit-convert/SKILL.md suite=scientific-skills/unit-convert waza cases=0 queries=2",
  ],
  curated: [
    "gh-fix-ci curated skills/.curated/gh-fix-ci/SKILL.md suite=skills/.curated/gh-fix-ci/evals skill-creator cases=0 queries=2",
    "skill-installer curated skills/.system/skill-installer/SKILL.md suite=- - cases=0 queries=0",
  ],
  "waza-project": [
    "code-explainer agent-skills skills/code-explainer/SKILL.md suite=evals/code-explainer waza cases=1 queries=2",
  ],
  "skill-creator-root": [
    "csv-chart agent-skills skills/csv-chart/SKILL.md suite=- - cases=0 queries=0",
    // Its one case has only a natural-language expectation: nothing to grade without a judge (#28).
    "csv-clean agent-skills skills/csv-clean/SKILL.md suite=evals skill-creator cases=0 queries=0",
  ],
};

describe("fixture repositories in every layout", () => {
  for (const [name, expected] of Object.entries(EXPECTED))
    it(`${name}: every skill once, its layout and suite, no error (git listing and plain walk alike)`, async () => {
      const inRepo = await validate(join(LAYOUTS, name));
      expect(inRepo.listing).toBe("git");
      expect(summary(inRepo)).toEqual(expected);
      expect(inRepo.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      expect(inRepo.code).toBe(0);
      const walked = await validate(plainCopy(name));
      expect(walked.listing).toBe("walk");
      expect(summary(walked)).toEqual(expected);
      expect(walked.diagnostics).toEqual(inRepo.diagnostics);
    });

  it("a linked .agents/skills -> ../skills gives no duplicate: each skill under its real path", async () => {
    const v = await validate(join(LAYOUTS, "agent-skills"));
    expect(v.skills.filter((s) => s.path.startsWith(".agents/"))).toEqual([]);
    expect(v.diagnostics.filter((d) => d.code === "skill/duplicate-name")).toEqual([]);
  });

  it("two plugins may each have `configure`; non-portable frontmatter Claude Code accepts is a warning, strict an error", async () => {
    const v = await validate(join(LAYOUTS, "plugin-marketplace"));
    expect(v.skills.map((s) => s.namespace)).toEqual(["alpha", "beta", "beta"]);
    expect(v.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code}`)).toEqual([
      "plugins/beta/skills/deploy/SKILL.md:9:12 warning skill/metadata-value",
      "plugins/beta/skills/deploy/SKILL.md:10:13 warning skill/metadata-value",
      "plugins/beta/skills/deploy/SKILL.md:5:3 warning skill/allowed-tools-list",
    ]);
    const strict = await validate(join(LAYOUTS, "plugin-marketplace"), "--profile", "strict");
    expect(strict.errors).toBe(3);
    expect(strict.code).toBe(2);
  });

  it("waza's eval.yaml tasks become cases with the checks that map onto skillgate's, the rest named", async () => {
    const found = discoverRepository(join(LAYOUTS, "waza-project"), opts);
    const c = found.skills[0]!.suite!.cases[0]!;
    expect(c.prompt).toContain("def f(n)");
    expect(c.assertions.map((a) => `${a.rawType} ${String(a.params.value)}`)).toEqual([
      "contains factorial",
      "not-regex (?i)fatal error|exception occurred",
    ]);
    expect(c.assertions[0]!.loc).toMatchObject({
      file: "evals/code-explainer/tasks/recursion.yaml",
      line: 7,
    });
    const medium = discoverRepository(join(LAYOUTS, "grouped"), opts).skills[0]!.suite!.trigger!
      .shouldFire[1]!;
    expect(medium.weight).toBe(0.5);
  });

  it("a root skill's suite files in evals/ are inside its suite folder, and withheld from the skill", () => {
    const found = discoverRepository(join(LAYOUTS, "root-skill"), opts);
    expect(found.skills[0]!.suite!.cases[0]!.files).toEqual([
      { from: "evals/files/form.pdf", to: "form.pdf" },
    ]);
    expect(found.skills[0]!.folder.files).toEqual(["SKILL.md", "scripts/fill.py"]);
  });
});

describe("init finds a skill in any layout", () => {
  it("by its plugin name; a name two plugins share is refused", async () => {
    const dir = plainCopy("plugin-marketplace");
    const shared = await runCli(["init", "configure", "--repo", dir]);
    expect(shared.code).toBe(2);
    expect(shared.stderr).toContain("`configure` names 2 skills (alpha:configure, beta:configure)");
    const r = await runCli(["init", "beta:configure", "--repo", dir]);
    expect(r.stdout).toContain("created plugins/beta/skills/configure/evals/meta.json");
    // The scaffold is the plugin skill's (beta's folder) and is refused until its TODO- keys are replaced.
    const scaffold = await validate(dir);
    const errorFiles = scaffold.diagnostics.filter((d) => d.severity === "error").map((d) => d.file);
    expect(new Set(errorFiles)).toEqual(
      new Set([
        "plugins/beta/skills/configure/evals/prompts/example.yaml",
        "plugins/beta/skills/configure/evals/trigger-eval.json",
      ]),
    );
    for (const f of ["prompts/example.yaml", "trigger-eval.json"]) {
      const file = join(dir, "plugins/beta/skills/configure/evals", f);
      writeFileSync(file, readFileSync(file, "utf8").replace(/^(\s*"?)TODO-/gm, "$1"));
    }
    const v = await validate(dir);
    expect(v.errors).toBe(0);
    // Its case, and its 4 trigger queries with the 2 of its suite under .agent/evals/beta/configure.
    expect(v.skills.find((s) => s.name === "beta:configure")).toMatchObject({ cases: 1, triggerQueries: 6 });
  });
});

describe("a root skill is named after its repository", () => {
  it("from the git remote: the right name passes, another is a located error under strict (a warning by default)", async () => {
    const dir = plainCopy("root-skill");
    git(dir, "init", "-q");
    git(dir, "remote", "add", "origin", "https://github.com/acme/pdf-forms.git");
    expect((await validate(dir, "--profile", "strict")).errors).toBe(0);
    git(dir, "remote", "set-url", "origin", "git@github.com:acme/forms-kit.git");
    // Claude Code takes the name from `name:` (#28): the spec's rule is the strict profile's.
    const byDefault = await validate(dir);
    expect(byDefault.code).toBe(0);
    expect(byDefault.diagnostics.find((d) => d.code === "skill/name-folder")).toMatchObject({
      severity: "warning",
      message: expect.stringContaining("differs from the repository's name `forms-kit`"),
    });
    const v = await validate(dir, "--profile", "strict");
    expect(v.code).toBe(2);
    expect(v.diagnostics.find((d) => d.severity === "error")).toMatchObject({
      file: "SKILL.md",
      line: 2,
      column: 7,
      code: "skill/name-folder",
      message: expect.stringContaining("must equal the repository's name `forms-kit`"),
    });
  });

  it("from GITHUB_REPOSITORY when the folder is the Actions workspace", () => {
    const dir = plainCopy("root-skill");
    const env = { GITHUB_REPOSITORY: "acme/invoices", GITHUB_WORKSPACE: dir };
    const found = discoverRepository(dir, { ...opts, profile: "strict", env });
    expect(found.diagnostics.filter((d) => d.severity === "error").map((d) => d.message)).toEqual([
      "name `pdf-forms` must equal the repository's name `invoices` (a root skill's folder is the repository)",
    ]);
    const elsewhere = discoverRepository(dir, {
      ...opts,
      profile: "strict",
      env: { ...env, GITHUB_WORKSPACE: tmpdir() },
    });
    expect(elsewhere.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });
});

describe("what discovery reads and skips", () => {
  it("in a git checkout: ignored and vendored folders are skipped, a skill named `build` is not; untracked files only outside Actions", () => {
    const dir = repo({
      ".gitignore": "generated/\n",
      "skills/tracked/SKILL.md": skillMd("tracked"),
      "skills/build/SKILL.md": skillMd("build"),
      "vendor/acme/skills/copy/SKILL.md": skillMd("copy"),
      "node_modules/pkg/skills/dep/SKILL.md": skillMd("dep"),
    });
    git(dir, "init", "-q");
    git(dir, "add", "-A", "-f");
    git(dir, "commit", "-q", "-m", "c");
    write(dir, {
      "generated/skills/gen/SKILL.md": skillMd("gen"),
      "skills/untracked/SKILL.md": skillMd("untracked"),
    });
    const local = discoverRepository(dir, opts);
    expect(local.files.source).toBe("git");
    expect(local.skills.map((s) => s.path)).toEqual([
      "skills/build/SKILL.md",
      "skills/tracked/SKILL.md",
      "skills/untracked/SKILL.md",
    ]);
    // The Action judges the commit: the tracked files.
    const action = discoverRepository(dir, { ...opts, env: { GITHUB_ACTIONS: "true" } });
    expect(action.skills.map((s) => s.path)).toEqual(["skills/build/SKILL.md", "skills/tracked/SKILL.md"]);
  });

  it("a `.git` folder git would not take for a repository is passed over, as git passes over it", () => {
    // An empty `.git` (left in /tmp, say) is no checkout: the folder is walked.
    const dir = repo({ "skills/one/SKILL.md": skillMd("one"), ".git/placeholder": "" });
    expect(discoverRepository(dir, opts).files.source).toBe("walk");
    // Below a real checkout, a stray `.git` in a subfolder does not hide the checkout above it.
    const outer = repo({
      "inner/skills/two/SKILL.md": skillMd("two"),
      "inner/.git/HEAD": "ref: refs/heads/x\n",
    });
    git(outer, "init", "-q");
    git(outer, "add", "-A", "-f");
    git(outer, "commit", "-q", "-m", "c");
    expect(discoverRepository(join(outer, "inner"), opts).skills.map((s) => s.path)).toEqual([
      "skills/two/SKILL.md",
    ]);
  });

  it("a SKILL.md linking outside the repository is an error, never read; one linking inside is its target, once (a notice)", () => {
    const outside = repo({ "secret/SKILL.md": skillMd("secret") });
    const dir = repo({ "skills/real/SKILL.md": skillMd("real") });
    mkdirSync(join(dir, "skills/leak"));
    symlinkSync(join(outside, "secret/SKILL.md"), join(dir, "skills/leak/SKILL.md"));
    mkdirSync(join(dir, "skills/alias"));
    symlinkSync("../real/SKILL.md", join(dir, "skills/alias/SKILL.md"));
    const found = discoverRepository(dir, opts);
    expect(found.skills.map((s) => s.path)).toEqual(["skills/real/SKILL.md"]);
    expect(found.diagnostics.map((d) => `${d.file} ${d.severity} ${d.code}`)).toEqual([
      "skills/alias/SKILL.md notice skill/linked",
      "skills/leak/SKILL.md error skill/link-outside",
    ]);
  });

  it("configured globs narrow discovery; what they leave out is counted, and a warning where the PR edits it", async () => {
    const v = await validate(join(LAYOUTS, "plugin-marketplace"), "--glob", "plugins/alpha/**/SKILL.md");
    expect(v.skills.map((s) => s.name)).toEqual(["alpha:configure"]);
    expect(v.outsideGlobs).toEqual([
      "plugins/beta/skills/configure/SKILL.md",
      "plugins/beta/skills/deploy/SKILL.md",
    ]);
    expect(v.diagnostics.find((d) => d.code === "discovery/outside-globs")).toMatchObject({
      severity: "notice",
      message: expect.stringContaining("2 SKILL.md file(s) lie outside the configured skills globs"),
    });
    const ds = outsideGlobsDiagnostics(v.outsideGlobs, ["plugins/beta/skills/deploy/SKILL.md"]);
    expect(ds.map((d) => `${d.severity} ${d.file}`)).toEqual([
      "notice plugins/beta/skills/configure/SKILL.md",
      "warning plugins/beta/skills/deploy/SKILL.md",
    ]);
    const none = await runCli([
      "validate",
      "--repo",
      join(LAYOUTS, "plugin-marketplace"),
      "--glob",
      "nothing/*/SKILL.md",
    ]);
    expect(none.code).toBe(2);
    expect(none.stdout).toContain(
      "no skill within the configured globs; 3 SKILL.md file(s) lie outside them",
    );
  });

  it("a SKILL.md inside another skill's folder is one of its files, not a skill", () => {
    const dir = repo({
      "skills/maker/SKILL.md": skillMd("maker"),
      "skills/maker/templates/example/SKILL.md": skillMd("wrong-name"),
    });
    const found = discoverRepository(dir, opts);
    expect(found.skills.map((s) => s.name)).toEqual(["maker"]);
    expect(found.skills[0]!.folder.files).toContain("templates/example/SKILL.md");
    expect(found.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(["notice skill/nested"]);
  });
});

describe("nothing checked is never a pass (what a hostile PR would try)", () => {
  it("a case whose checks are under unknown keys is two located errors, and `run` refuses the skill", async () => {
    const dir = repo({
      "skills/split/SKILL.md": skillMd("split"),
      ".agent/evals/split/prompts/c1.yaml":
        'id: c1\nprompt: Split 1000 cents three ways.\nmust_have: ["334"]\nmust_not_have: ["333\\n333\\n333"]\n',
    });
    const v = await validate(dir);
    expect(
      v.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.line}:${d.column} ${d.message}`),
    ).toEqual([
      '3:1 unknown key `must_have`; checks go in `assertions` (e.g. `- {id: has-total, type: contains, value: "…"}`)',
      '4:1 unknown key `must_not_have`; checks go in `assertions` (e.g. `- {id: has-total, type: not-contains, value: "…"}`)',
    ]);
    const typo = repo({
      "skills/split/SKILL.md": skillMd("split"),
      ".agent/evals/split/prompts/c1.yaml":
        "id: c1\nprompt: Split 1000 cents.\nasertions:\n  - {id: a, type: contains, value: '334', depend_on: [b]}\n",
    });
    const t = await validate(typo);
    expect(t.diagnostics.filter((d) => d.severity === "error").map((d) => d.message)).toEqual([
      "unknown key `asertions`; did you mean `assertions`?",
    ]);
    const r = await runHere(dir, "--quiet", "--no-cache");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(".agent/evals/split/prompts/c1.yaml:3:1");
  });

  it("a case with no checks at all, in any format, is an error", async () => {
    const dir = repo({
      "skills/a/SKILL.md": skillMd("a"),
      ".agent/evals/a/prompts/c1.yaml": "id: c1\nprompt: Do a.\n",
      "skills/b/SKILL.md": skillMd("b"),
      "skills/b/evals/evals.json": JSON.stringify({
        skill_name: "b",
        evals: [{ id: 1, prompt: "Do b", expectations: [] }],
      }),
    });
    const v = await validate(dir);
    expect(v.diagnostics.filter((d) => d.code === "suite/case-no-checks").map((d) => d.file)).toEqual([
      ".agent/evals/a/prompts/c1.yaml",
      "skills/b/evals/evals.json",
    ]);
  });

  it("a duplicate skill (one skills folder) is gated as Claude Code loads it, or a blocking error under strict", async () => {
    const dir = repo({
      "skills/twin-copy/SKILL.md": skillMd("twin"),
      "skills/twin/SKILL.md": skillMd("twin"),
    });
    // Claude Code loads both, by folder: the skill in the folder of its own name holds the name, whatever order the
    // folders are listed in, and the other is gated under its folder's name with a warning. Neither is skipped.
    const v = await validate(dir);
    expect(v.diagnostics.find((d) => d.code === "skill/duplicate-name")).toMatchObject({
      file: "skills/twin-copy/SKILL.md",
      severity: "warning",
    });
    expect(v.skills.map((x) => x.name).sort()).toEqual(["twin", "twin-copy"]);
    // Under the spec's rule it is an error, which blocks `run`.
    const strict = await validate(dir, "--profile", "strict");
    expect(strict.diagnostics.find((d) => d.code === "skill/duplicate-name")).toMatchObject({
      file: "skills/twin-copy/SKILL.md",
      severity: "error",
    });
    writeFileSync(join(dir, ".skillgate.yml"), "profile: strict\n");
    const r = await runHere(dir, "--quiet", "--no-cache");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("skills/twin-copy/SKILL.md");
  });
  it("suite files must lie inside the suite folder by path segments and by real path", async () => {
    const outside = repo({ "token.txt": "secret" });
    const dir = repo({
      "skills/foo/SKILL.md": skillMd("foo"),
      ".agent/evals/foo-data/x.txt": "next door",
      ".agent/evals/foo/prompts/c1.yaml":
        "id: c1\nprompt: p\nfiles: [../foo-data/x.txt, fixtures/link.txt]\nassertions: [{id: a, type: contains, value: x}]\n",
    });
    mkdirSync(join(dir, ".agent/evals/foo/fixtures"));
    symlinkSync(join(outside, "token.txt"), join(dir, ".agent/evals/foo/fixtures/link.txt"));
    const v = await validate(dir);
    expect(v.diagnostics.filter((d) => d.code === "suite/file-outside").map((d) => d.message)).toEqual([
      "file `../foo-data/x.txt` must lie inside the suite folder .agent/evals/foo/",
      "file `fixtures/link.txt` must lie inside the suite folder .agent/evals/foo/",
    ]);
  });

  it("a suite folder linked outside the repository is not read", async () => {
    const outside = repo({ "prompts/c1.yaml": "id: c1\nprompt: leaked secret text\n" });
    const dir = repo({ "skills/foo/SKILL.md": skillMd("foo"), ".agent/evals/.keep": "" });
    symlinkSync(outside, join(dir, ".agent/evals/foo"));
    const found = discoverRepository(dir, opts);
    expect(found.skills[0]!.suite?.cases ?? []).toEqual([]);
    expect(found.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.file} ${d.code}`)).toEqual(
      [".agent/evals/foo/prompts/c1.yaml suite/link-outside"],
    );
    expect(JSON.stringify(found)).not.toContain("leaked secret text");
  });

  it("checks that cannot run are found before any trial: bad regexes (with flags), trace matchers, unknown gates", async () => {
    const dir = repo({
      "skills/a/SKILL.md": skillMd("a"),
      ".agent/evals/a/prompts/c1.yaml": [
        "id: c1",
        "prompt: p",
        "assertions:",
        "  - {id: flags, type: regex, value: '\\p{Nope}', flags: u}",
        "  - {id: fine-without-u, type: regex, value: '\\p{Nope}'}",
        "  - {id: tool, type: tool-called, tool: '/Bash(/'}",
        "  - {id: arg, type: tool-not-called, tool: Bash, args: {command: {regex: 'rm -rf ['}}}",
        "  - {id: step, type: tool-order, values: [Read, {tool: Edit, args: {file_path: {regex: '*.ts'}}}]}",
        "  - {id: gate, type: gate, gate: conservaton, module: src/split.ts}",
        "  - {id: later, type: regex, value: '$pattern('}",
        "",
      ].join("\n"),
      // The oracle may define $pattern: its regex is checked once it resolves, at grading.
      ".agent/evals/a/meta.json": JSON.stringify({ oracle: "node oracle.mjs" }),
    });
    const v = await validate(dir);
    expect(
      v.diagnostics
        .filter((d) => d.severity === "error")
        .map((d) => `${d.line}:${d.column} ${d.code} ${d.message.split(":")[0]}`),
    ).toEqual([
      "4:37 suite/invalid-regex assertion `flags`",
      "6:41 suite/invalid-regex assertion `tool`",
      "7:74 suite/invalid-regex assertion `arg`",
      "8:88 suite/invalid-regex assertion `step`",
      "9:34 suite/unknown-gate assertion `gate`",
    ]);
  });

  it("a judge assertion without a judge: a notice naming the setting; a case left with nothing to grade blocks in run", async () => {
    const dir = join(LAYOUTS, "skill-creator-root");
    const v = await validate(dir);
    expect(
      v.diagnostics.filter((d) => d.code.startsWith("suite/judge") || d.code === "suite/nothing-gradeable"),
    ).toMatchObject([
      {
        line: 8,
        column: 24,
        severity: "notice",
        message: expect.stringContaining("set `judge:` in .skillgate.yml"),
      },
      { line: 4, column: 5, severity: "warning", code: "suite/nothing-gradeable" },
    ]);
    const r = await runHere(dir, "--skills", "csv-clean", "--quiet", "--no-cache");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("evals/evals.json:4");
    expect(r.stdout).toContain("set `judge:` in .skillgate.yml");
  });

  it("suite files that match no skill are warnings, never silently skipped", async () => {
    const dir = repo({
      "skills/a/SKILL.md": skillMd("a"),
      "evals/evals.json": JSON.stringify({ evals: [{ prompt: "p", expectations: ["x"] }] }),
      "evals/gone/trigger_tests.yaml": "skill: gone\nshould_trigger_prompts: [hello]\n",
      ".agent/evals/old-name/meta.json": "{}",
    });
    const v = await validate(dir);
    expect(v.diagnostics.map((d) => `${d.file} ${d.severity} ${d.code}`)).toEqual([
      "evals/evals.json warning suite/orphan",
      "evals/gone/trigger_tests.yaml warning suite/orphan",
      ".agent/evals/old-name warning suite/orphan",
    ]);
  });

  it("names are unique per namespace: the second of one name in one skills folder is named by its folder (strict: an error); two plugins', or copies in a folder no agent loads, each gated", async () => {
    const v = await validate(
      repo({
        "plugins/a/skills/setup/SKILL.md": skillMd("setup"),
        "plugins/b/skills/setup/SKILL.md": skillMd("setup"),
        "skills/setup-one/SKILL.md": skillMd("setup"),
        "skills/setup-two/SKILL.md": skillMd("setup"),
        // `team/` is no folder an agent loads skills from (#28): two copies there, each gated under its folder.
        "team/setup-one/SKILL.md": skillMd("setup"),
        "team/setup-two/SKILL.md": skillMd("setup"),
      }),
    );
    expect(v.skills.map((s) => s.name)).toEqual([
      "a:setup",
      "b:setup",
      "setup@skills/setup-one",
      "setup-two",
      "setup@team/setup-one",
      "setup@team/setup-two",
    ]);
    expect(v.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(v.diagnostics.find((d) => d.code === "skill/duplicate-name")).toMatchObject({
      file: "skills/setup-two/SKILL.md",
      severity: "warning",
    });
  });
});
