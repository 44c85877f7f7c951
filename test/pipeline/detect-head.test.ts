/**
 * Issue #42: `plan` (a forecast) skips the near-duplicate search, whose findings are warnings it never shows; a
 * run still reports every near-duplicate pair of the head, those of skills the PR leaves alone included. And the
 * working tree's listing made while finding the PR's changed files is the head discovery's, used once.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Logger } from "../../src/model/index.js";
import { detectHead, discoverWith } from "../../src/pipeline/detect.js";
import { resolveSettings } from "../../src/settings/resolve.js";
import { writeRepo } from "../support/repo-files.js";

const quiet: Logger = {
  info: () => {},
  warn: () => {},
  error: () => {},
  debug: () => {},
  group: async (_n, fn) => fn(),
  progress: () => {},
};
const git = (dir: string, ...args: string[]) =>
  execFileSync("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.test", ...args], {
    stdio: "ignore",
  });
const skill = (name: string, description: string) => ({
  [`skills/${name}/SKILL.md`]: `---\nname: ${name}\ndescription: ${description}\n---\n\nDo it.\n`,
});
const INVOICE = "Reconcile vendor invoices against purchase orders and flag mismatched line totals quickly.";
const PLOT = "Render scatter plots from CSV columns with axis labels, legends and exported PNG files.";
const NEAR = "near-duplicate-description";

let repo: string;
beforeAll(() => {
  repo = writeRepo({
    ".skillgate.yml": "agent:\n  adapter: lexical\n",
    ...skill("alpha", "Translate German legal contracts into plain English summaries for clients."),
    // Two skills the PR leaves alone, near-duplicates of each other already at base.
    ...skill("beta", INVOICE),
    ...skill("gamma", INVOICE.replace("quickly", "carefully")),
    ...skill("delta", PLOT),
  });
  git(repo, "init", "-q", "-b", "main");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "base");
  git(repo, "checkout", "-qb", "pr");
  // The PR rewords alpha into a near-duplicate of delta, and adds epsilon (untracked).
  writeFileSync(
    `${repo}/skills/alpha/SKILL.md`,
    Object.values(skill("alpha", PLOT.replace("PNG", "SVG")))[0]!,
  );
  mkdirSync(`${repo}/skills/epsilon`);
  writeFileSync(
    `${repo}/skills/epsilon/SKILL.md`,
    Object.values(skill("epsilon", "Schedule weekly team standups in shared calendars."))[0]!,
  );
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe("the head's repository-level warnings in a PR", () => {
  it("a run reports every near-duplicate pair, untouched ones too; a forecast skips the search and nothing else", async () => {
    const settings = await resolveSettings({ repo, base: "main", env: {} }, quiet);
    expect(settings.changedFiles).toEqual(["skills/alpha/SKILL.md", "skills/epsilon/SKILL.md"]);
    const run = detectHead(settings, discoverWith(settings));
    const warned = (ds: typeof run.diagnostics) =>
      ds.filter((d) => d.code.endsWith(NEAR)).map((d) => `${d.file}:${d.message.split(" ")[2]}`);
    expect(warned(run.diagnostics).sort()).toEqual([
      "skills/alpha/SKILL.md:alpha",
      "skills/beta/SKILL.md:beta",
      "skills/delta/SKILL.md:delta",
      "skills/gamma/SKILL.md:gamma",
    ]);
    const forecast = detectHead(settings, discoverWith(settings), true);
    expect(warned(forecast.diagnostics)).toEqual([]);
    expect(forecast.diagnostics).toEqual(run.diagnostics.filter((d) => !d.code.endsWith(NEAR)));
    expect(run.skills.map((s) => s.name)).toEqual(["alpha", "beta", "delta", "epsilon", "gamma"]);
    expect(forecast.skills.map((s) => [s.name, s.description])).toEqual(
      run.skills.map((s) => [s.name, s.description]),
    );
  });
});
