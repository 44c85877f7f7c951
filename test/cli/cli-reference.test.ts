/**
 * Issue #43: the CLI reference (docs/cli.md, its usage block) lists every command `skillgate --help` names and
 * every flag each command's `--help` prints, through the bundled CLI. `plan --matrix` was missing, and more. And
 * no page cites `seeds/001–003`, documents that are not in the repository.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import { bundledDist } from "../support/dist.js";

const ROOT = join(import.meta.dirname, "../..");
let dist: string;
beforeAll(async () => {
  dist = await bundledDist();
}, 180_000);

const help = async (...args: string[]) =>
  (await execa(process.execPath, [join(dist, "cli.js"), ...args], { reject: false })).stdout;

/** The usage block of docs/cli.md: each command's flags, its continuation lines included. */
function documented(): Map<string, Set<string>> {
  const text = readFileSync(join(ROOT, "docs/cli.md"), "utf8");
  const block = /```\n(skillgate [\s\S]*?)```/.exec(text)![1]!;
  const out = new Map<string, Set<string>>();
  let current = "";
  for (const line of block.split("\n")) {
    const m = /^skillgate (\S+)/.exec(line);
    if (m) current = m[1]!;
    const flags = out.get(current) ?? new Set<string>();
    for (const f of line.matchAll(/--[a-z][a-z-]*/g)) flags.add(f[0]);
    out.set(current, flags);
  }
  return out;
}

describe("docs/cli.md", () => {
  it("lists every command and every flag each command's --help prints", async () => {
    const commands = [...(await help("--help")).matchAll(/^ {2}([a-z]+) {2,}/gm)].map((m) => m[1]!);
    expect(commands.length).toBeGreaterThanOrEqual(7);
    const docs = documented();
    const missing: string[] = [];
    for (const command of commands) {
      const flags = new Set(
        [...(await help(command, "--help")).matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]),
      );
      flags.delete("--help");
      const listed = docs.get(command);
      if (!listed) missing.push(`${command} (the command)`);
      for (const f of flags) if (!listed?.has(f)) missing.push(`${command} ${f}`);
    }
    expect(missing).toEqual([]);
  }, 120_000);

  it("no page cites the design documents by a path the repository does not have (seeds/…)", () => {
    const pages = [
      "README.md",
      ...readdirSync(join(ROOT, "docs"))
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`),
    ];
    const cited = pages.filter((p) => /\bseeds\/\d/.test(readFileSync(join(ROOT, p), "utf8")));
    expect(cited).toEqual([]);
  });

  it("docs/workflows.md says how to pin the action before a release exists: a full commit SHA", () => {
    const page = readFileSync(join(ROOT, "docs/workflows.md"), "utf8");
    const section = /## Pinning the action\n([\s\S]*?)\n## /.exec(page)?.[1] ?? "";
    expect(section).toMatch(/uses: skillgate\/skillgate@[0-9a-f]{40} #/);
    expect(section).toMatch(/git ls-remote/);
  });
});
