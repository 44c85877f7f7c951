import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readInputs } from "../../src/github/inputs.js";
import { recordingIO } from "./recording-io.js";

const ROOT = join(import.meta.dirname, "../..");
const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8"));

describe("action.yml", () => {
  it("runs dist/index.js on node24 and declares the outputs", () => {
    expect(action.runs).toEqual({
      using: "node24",
      main: "dist/index.js",
      post: "dist/post.js",
      "post-if": "always()",
    });
    expect(Object.keys(action.outputs).sort()).toEqual([
      "blocking-roots",
      "new-roots",
      "report",
      "review-report-url",
      "verdict",
    ]);
  });

  it("gives every input a default (getBooleanInput-style parsing throws on empty booleans)", () => {
    for (const [name, spec] of Object.entries<Record<string, unknown>>(action.inputs)) {
      expect(spec.required, name).toBe(false);
      expect(typeof spec.default, name).toBe("string");
    }
    expect(action.inputs["github-token"].default).toBe("$" + "{{ github.token }}");
    expect(action.inputs["check-name"].default).toBe("skillgate");
    for (const b of ["comment", "allow-pull-request-target"])
      expect(["true", "false"]).toContain(action.inputs[b].default);
  });

  it("declares exactly the inputs the action reads, and its defaults parse", () => {
    const read = new Set<string>();
    const defaults = Object.fromEntries(
      Object.entries<{ default: string }>(action.inputs).map(([k, v]) => [k, v.default]),
    );
    const { io } = recordingIO(defaults);
    const parsed = readInputs({
      ...io,
      getInput: (n) => {
        read.add(n);
        return io.getInput(n);
      },
    });
    expect([...read].sort()).toEqual(Object.keys(action.inputs).sort());
    expect(parsed).toMatchObject({ mode: "auto", comment: false, failOn: "fail", checkName: "skillgate" });
  });
});

describe("example workflows", () => {
  const dir = join(ROOT, "examples/workflows");
  const files = readdirSync(dir).filter((f) => f.endsWith(".yml"));
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  // biome-ignore lint/suspicious/noExplicitAny: workflow YAML is inspected key by key.
  const load = (f: string): any => parse(readFileSync(join(dir, f), "utf8"));
  // biome-ignore lint/suspicious/noExplicitAny: workflow YAML is inspected key by key.
  const steps = (wf: any) => Object.values<any>(wf.jobs).flatMap((j) => j.steps as any[]);
  // biome-ignore lint/suspicious/noExplicitAny: workflow YAML is inspected key by key.
  const isSkillgate = (s: any) => typeof s.uses === "string" && s.uses.startsWith("skillgate/skillgate@");

  it("include a Claude Code and a Codex PR check, the fork-safe pair, a sharded sweep, a PR fanned out over a planned matrix, main's cache and the on-demand mode", () => {
    expect(files.sort()).toEqual([
      "skillgate-claude-code.yml",
      "skillgate-codex.yml",
      "skillgate-fork-safe-evaluate.yml",
      "skillgate-fork-safe-report.yml",
      "skillgate-main.yml",
      "skillgate-matrix.yml",
      "skillgate-on-demand.yml",
      "skillgate-pr-matrix.yml",
      "skillgate-sweep.yml",
    ]);
  });

  it("pin every third-party action by full commit SHA and never use pull_request_target", () => {
    for (const f of files) {
      const text = readFileSync(join(dir, f), "utf8");
      expect(text, f).not.toMatch(/pull_request_target:/);
      for (const m of text.matchAll(/uses:\s*([^\s#]+)/g)) {
        const ref = m[1]!;
        if (ref.startsWith("skillgate/skillgate@")) continue; // this action itself
        expect(ref, `${f}: ${ref}`).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
      }
    }
  });

  it("every step that evaluates names its agent and installs that agent's CLI at the version the tests run", () => {
    const cli: Record<string, string> = {
      "claude-code": `npm install -g @anthropic-ai/claude-code@${pkg.devDependencies["@anthropic-ai/claude-code"]}`,
      codex: `npm install -g @openai/codex@${pkg.devDependencies["@openai/codex"]}`,
    };
    for (const f of files)
      for (const job of Object.values<{ steps: Record<string, unknown>[] }>(load(f).jobs)) {
        const i = job.steps.findIndex(isSkillgate);
        if (i < 0) continue;
        const w = (job.steps[i]!.with ?? {}) as Record<string, string>;
        if (w.mode === "report") continue;
        const runs = job.steps.slice(0, i).map((s) => s.run);
        // A job of an agent matrix evaluates a cell of the base config; its runner has every cell's CLI.
        if (w.cell) expect(runs, f).toEqual(expect.arrayContaining(Object.values(cli)));
        else {
          expect(Object.keys(cli), f).toContain(w.agent);
          expect(runs, f).toContain(cli[w.agent!]);
        }
      }
  });

  it("check out without leaving credentials, and leave the trial cache to the action", () => {
    for (const f of files) {
      for (const s of steps(load(f)).filter((x) => String(x.uses).startsWith("actions/checkout@")))
        expect(s.with?.["persist-credentials"], f).toBe(false);
      expect(
        steps(load(f)).some((s) => String(s.uses).startsWith("actions/cache@")),
        f,
      ).toBe(false);
    }
  });

  it("ask for least privilege: checks write only to post, pull-requests write only for the comment", () => {
    for (const f of files) {
      const wf = load(f);
      // biome-ignore lint/suspicious/noExplicitAny: workflow YAML is inspected key by key.
      for (const job of Object.values<any>(wf.jobs)) {
        const step = job.steps.find(isSkillgate);
        if (!step) continue;
        const perms = { ...wf.permissions, ...job.permissions };
        const w = step.with ?? {};
        const posts = w.mode !== "evaluate";
        expect(perms.checks === "write", `${f}: checks`).toBe(posts);
        expect(perms["pull-requests"] === "write", `${f}: pull-requests`).toBe(w.comment === "true");
        if (wf.on.pull_request) expect(["read", "write"], `${f}: PR files`).toContain(perms["pull-requests"]);
        expect(perms.contents, f).toBe("read");
      }
    }
  });

  it("PR checks: a job name that is not the check's name, labeled/unlabeled re-runs, merge queues", () => {
    for (const f of files) {
      const wf = load(f);
      if (!wf.on.pull_request) continue;
      expect(wf.on.pull_request.types, f).toEqual(expect.arrayContaining(["labeled", "unlabeled"]));
      // biome-ignore lint/suspicious/noExplicitAny: workflow YAML is inspected key by key.
      for (const [id, job] of Object.entries<any>(wf.jobs)) {
        const step = job.steps.find(isSkillgate);
        if (!step) continue;
        const checkName = step.with?.["check-name"] ?? "skillgate";
        expect(id, f).not.toBe(checkName);
        expect(job.name ?? id, f).not.toBe(checkName);
        if (step.with?.mode !== "evaluate") expect(Object.keys(wf.on), f).toContain("merge_group");
      }
    }
  });

  it("actionlint finds nothing in action.yml and the examples, and finds what is wrong in a broken workflow", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "sg-lint-"));
    try {
      const broken = join(scratch, "broken.yml");
      writeFileSync(
        broken,
        readFileSync(join(dir, "skillgate-claude-code.yml"), "utf8")
          .replace("agent: claude-code", "agnet: claude-code")
          .replace("types: [opened,", "types: [labelled,"),
      );
      // one linter start for all: the examples must come out clean, the broken copy must not
      const r = await execa(
        process.execPath,
        [join(ROOT, "scripts/lint-workflows.mjs"), ...files.map((f) => join(dir, f)), broken],
        { reject: false },
      );
      const findings = r.stdout.split("\n").filter((l) => /^\S+:\d+:\d+: /.test(l));
      expect(findings.filter((l) => !l.startsWith(broken))).toEqual([]);
      expect(r.stdout).toMatch(/broken\.yml:\d+:\d+: input "agnet" is not defined in action "skillgate"/);
      expect(r.stdout).toMatch(/broken\.yml:\d+:\d+: invalid activity type "labelled"/);
      expect(r.exitCode).toBe(1);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 120_000);
});
