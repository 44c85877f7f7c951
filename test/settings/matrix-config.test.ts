/**
 * Issue #32: `agents:` in the config: validated with located errors, compared key by key with the base (a cell
 * dropped, made optional, label-gated or replayed is a loosening), and resolved into the cells a run evaluates.
 */
import { describe, expect, it } from "vitest";
import { comparePolicies, readConfig } from "../../src/settings/policy.js";
import { resolveSettings } from "../../src/settings/resolve.js";
import { writeRepo } from "../support/repo-files.js";
import { recordingLogger } from "../support/trials.js";

const MATRIX = "agents:\n  - name: claude\n    adapter: claude-code\n  - name: codex\n    adapter: codex\n";
const load = (text: string) => readConfig({ kind: "dir", dir: writeRepo({ ".skillgate.yml": text }) });
const defaults = { trials: 3, triggerRuns: 3, competitorPrompts: 20 };

describe("agents: in .skillgate.yml", () => {
  it("locates a name used twice, agent beside agents, and a matrix with no required cell", () => {
    const twice = load(`${MATRIX}  - name: codex\n    adapter: command\n`);
    expect(twice.diagnostics.map((d) => [d.code, d.line])).toEqual([["config/duplicate-cell", 6]]);
    const both = load(`agent:\n  adapter: replay\n${MATRIX}`);
    expect(both.diagnostics.map((d) => [d.code, d.line])).toEqual([["config/agent-and-agents", 3]]);
    const none = load("agents:\n  - name: a\n    adapter: codex\n    required: false\n");
    expect(none.diagnostics.map((d) => d.code)).toEqual(["config/no-required-cell"]);
    expect(load("agents:\n  - name: Bad Name\n    adapter: codex\n").diagnostics[0]!.line).toBe(2);
  });

  it("a PR that drops a cell, makes it optional or label-gates it loosens the policy; another model is a change", () => {
    const base = load(MATRIX);
    const kind = (head: string) => comparePolicies(base, load(head), defaults).map((c) => [c.key, c.kind]);
    expect(kind("agents:\n  - name: claude\n    adapter: claude-code\n")).toEqual([["agents", "loosened"]]);
    expect(kind(`${MATRIX}    required: false\n`)).toEqual([["agents", "loosened"]]);
    expect(kind(`${MATRIX}    label: later\n`)).toEqual([["agents", "loosened"]]);
    expect(kind(`${MATRIX.replace("adapter: codex", "adapter: replay")}`)).toEqual([["agents", "loosened"]]);
    expect(kind(`${MATRIX}    model: gpt-5\n`)).toEqual([["agents", "changed"]]);
    expect(kind(MATRIX)).toEqual([]);
  });

  it("resolves the cells; --cell picks one; --agent beside a matrix is a usage error", async () => {
    const repo = writeRepo({ ".skillgate.yml": MATRIX });
    const all = await resolveSettings({ repo }, recordingLogger());
    expect(all.matrix).toMatchObject({ selected: ["claude", "codex"] });
    expect(all.agent.adapter).toBe("claude-code");
    const one = await resolveSettings({ repo, cells: "codex" }, recordingLogger());
    expect([one.matrix!.selected, one.matrix!.single, one.agent.adapter]).toEqual([["codex"], true, "codex"]);
    await expect(resolveSettings({ repo, agent: "codex" }, recordingLogger())).rejects.toThrow(
      /choose its cells with --cell/,
    );
    await expect(resolveSettings({ repo, cells: "gemini" }, recordingLogger())).rejects.toThrow(
      /no cell named gemini/,
    );
    const plain = writeRepo({ ".skillgate.yml": "trials: 2\n" });
    await expect(resolveSettings({ repo: plain, cells: "codex" }, recordingLogger())).rejects.toThrow(
      /defines no agents: matrix/,
    );
  });
});

describe("targets: in a PR's .skillgate.yml", () => {
  it("dropping a target loosens the policy; adding one is a change", () => {
    const base = load("targets: [claude-code, gh-skill]\n");
    const kind = (head: string) => comparePolicies(base, load(head), defaults).map((c) => [c.key, c.kind]);
    expect(kind("targets: [claude-code]\n")).toEqual([["targets", "loosened"]]);
    expect(kind("agent: {adapter: claude-code}\n")).toEqual([
      ["targets", "loosened"],
      ["agent", "changed"],
    ]);
    expect(kind("targets: [claude-code, gh-skill, codex]\n")).toEqual([["targets", "changed"]]);
    expect(kind("targets: [claude-code, gh-skill]\n")).toEqual([]);
  });
});
