/**
 * Issue #43: every example workflow job that evaluates (a skillgate step in a mode other than `report`) installs
 * bubblewrap before it: without it a hosted run cannot reach `uid+namespaces`, the level the Action requires by
 * default, and ends in error. The matrix examples had no such step.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const EXAMPLES = join(import.meta.dirname, "../../examples/workflows");

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}

const files = readdirSync(EXAMPLES).filter((f) => f.endsWith(".yml"));

describe("example workflows", () => {
  it.each(files)("%s installs bubblewrap before every evaluating skillgate step", (file) => {
    const wf = parse(readFileSync(join(EXAMPLES, file), "utf8")) as {
      jobs: Record<string, { steps?: Step[] }>;
    };
    for (const [name, job] of Object.entries(wf.jobs)) {
      const steps = job.steps ?? [];
      steps.forEach((step, i) => {
        const evaluates = step.uses?.startsWith("skillgate/skillgate@") && step.with?.mode !== "report";
        if (!evaluates) return;
        const installs = steps.slice(0, i).some((s) => /apt-get install .*\bbubblewrap\b/.test(s.run ?? ""));
        expect(installs, `${file}: job ${name}, step ${i + 1}`).toBe(true);
      });
    }
  });
});
