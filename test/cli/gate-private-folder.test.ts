/**
 * Issue #33 item 5: `skillgate gate` on a module in a folder closed to others (mode 700, as `mktemp -d` makes it)
 * judges the module, through a copy the sandbox uid can read, instead of failing it for where it lies; a folder it
 * truly cannot hand over (too large to copy) is a usage error (exit 2), never a FAIL.
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileModule } from "../../src/sandbox/compile.js";
import { isolation } from "../../src/sandbox/isolation/detect.js";
import { COPY_LIMITS } from "../../src/sandbox/readable-copy.js";
import { runCli } from "../support/run-cli.js";

const FIXTURES = join(import.meta.dirname, "../../gates/conservation/fixtures");
const scratch: string[] = [];
/** A folder as `mktemp -d` makes it: mode 700. */
function privateFolder(): string {
  const d = mkdtempSync(join(tmpdir(), "sg-private-"));
  scratch.push(d);
  chmodSync(d, 0o700);
  return d;
}
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

describe("skillgate gate on a module in a mode-700 folder", () => {
  it("a good module passes (exit 0), and where the sandbox has a uid of its own it was handed a copy", async () => {
    const dir = privateFolder();
    copyFileSync(join(FIXTURES, "good-largest-remainder.ts"), join(dir, "split.ts"));
    const r = await runCli(["gate", "conservation", join(dir, "split.ts")]);
    expect(r.stdout).toMatch(/^PASS conservation /);
    expect(r.stdout).not.toMatch(/closed to the sandbox/);
    expect(r.code).toBe(0);
  }, 120_000);

  it("a bad module still fails on its own faults (exit 1), not on its folder", async () => {
    const dir = privateFolder();
    copyFileSync(join(FIXTURES, "bad-round-each.ts"), join(dir, "split.ts"));
    const r = await runCli(["gate", "conservation", join(dir, "split.ts")]);
    expect(r.stdout).toMatch(/^FAIL conservation /);
    expect(r.stdout).toMatch(/✗ sum/);
    expect(r.stdout).not.toMatch(/does not compile|closed to the sandbox/);
    expect(r.code).toBe(1);
  }, 120_000);

  it("its relative imports come along: a closed subfolder and a file only its owner may read", async () => {
    const dir = privateFolder();
    mkdirSync(join(dir, "lib"), { mode: 0o700 });
    writeFileSync(
      join(dir, "lib/quota.ts"),
      "export const floorQuota = (t: number, n: number) => Math.floor(t / n);\n",
      { mode: 0o600 },
    );
    writeFileSync(
      join(dir, "split.ts"),
      `import { floorQuota } from "./lib/quota.ts";
export function allocate(total: number, n: number): number[] {
  if (!Number.isSafeInteger(total) || total < 0 || !Number.isInteger(n) || n < 1) throw new RangeError("bad input");
  const base = floorQuota(total, n);
  let rest = total - base * n;
  return Array.from({ length: n }, () => base + (rest-- > 0 ? 1 : 0));
}
`,
      { mode: 0o600 },
    );
    const r = await runCli(["gate", "conservation", join(dir, "split.ts")]);
    expect(r.stdout).toMatch(/^PASS conservation /);
    expect(r.code).toBe(0);
  }, 120_000);

  it("a change to the module is seen: the compile of the copy is keyed to the module's own files", async () => {
    const dir = privateFolder();
    const file = join(dir, "m.ts");
    writeFileSync(file, "export const v = 1;\n");
    const first = await compileModule(file);
    writeFileSync(file, "export const v = 2;\n");
    const second = await compileModule(file);
    expect(first.ok && second.ok).toBe(true);
    expect(second.ok && second.file).not.toBe(first.ok && first.file);
  }, 120_000);

  it("a closed folder too large to copy is a usage error (exit 2) that says what to do, never a FAIL", async () => {
    if ((await isolation()).level !== "uid+namespaces") return; // no copy is needed below that level
    const dir = privateFolder();
    copyFileSync(join(FIXTURES, "good-largest-remainder.ts"), join(dir, "split.ts"));
    mkdirSync(join(dir, "node_modules"));
    for (let i = 0; i < COPY_LIMITS.entries; i++) writeFileSync(join(dir, "node_modules", String(i)), "");
    const r = await runCli(["gate", "conservation", join(dir, "split.ts")]);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      /^skillgate gate: the folder .* is closed to the sandbox's uid \(mode 700\) and too large to copy/,
    );
    expect(r.stderr).toMatch(/chmod o\+rx/);
    expect(r.code).toBe(2);
  }, 120_000);
});
