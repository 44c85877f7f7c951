import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
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
    expect(Object.keys(action.outputs).sort()).toEqual(["blocking-roots", "new-roots", "report", "verdict"]);
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
  it("include a PR workflow, the fork-safe pair and a sharded sweep", () => {
    expect(files.sort()).toEqual([
      "skillgate-fork-safe-evaluate.yml",
      "skillgate-fork-safe-report.yml",
      "skillgate-pr.yml",
      "skillgate-sweep.yml",
    ]);
  });
  it("pin every third-party action by full commit SHA and never use pull_request_target", () => {
    for (const f of files) {
      const text = readFileSync(join(dir, f), "utf8");
      parse(text); // valid YAML
      expect(text, f).not.toMatch(/pull_request_target:/);
      for (const m of text.matchAll(/uses:\s*([^\s#]+)/g)) {
        const ref = m[1]!;
        if (ref.startsWith("skillgate/skillgate@")) continue; // this action itself
        expect(ref, `${f}: ${ref}`).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
      }
    }
  });
});
