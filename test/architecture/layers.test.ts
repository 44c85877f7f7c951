/**
 * Issue #40: the layers of docs/ARCHITECTURE.md hold, checked by dependency-cruiser (.dependency-cruiser.cjs): no
 * module imports a layer above its own, `@actions/*` only at the GitHub edge, no runtime import circles. No arrow
 * back up is excused (the list of known ones, 18 when the check landed, is gone).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const CRUISER = join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");

/** dependency-cruiser over `src` and `gates` of `cwd` with the repository's rules. */
function cruise(cwd: string) {
  return execa(
    process.execPath,
    [CRUISER, "--config", ".dependency-cruiser.cjs", "--output-type", "err", "src", "gates"],
    { cwd, reject: false },
  );
}

describe("layering (dependency-cruiser)", () => {
  it("no import runs back up the layers", async () => {
    const r = await cruise(ROOT);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
  }, 120_000);

  it("an import back up fails the check, naming the rule (the sandbox reaching into gates/)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-layers-"));
    try {
      for (const f of [".dependency-cruiser.cjs", "tsconfig.json"]) cpSync(join(ROOT, f), join(dir, f));
      mkdirSync(join(dir, "src/sandbox"), { recursive: true });
      mkdirSync(join(dir, "gates"));
      writeFileSync(join(dir, "gates/catalog.ts"), "export const FLAGS = 1;\n");
      writeFileSync(
        join(dir, "src/sandbox/child.ts"),
        'import { FLAGS } from "../../gates/catalog.js";\nexport const x = FLAGS;\n',
      );
      const r = await cruise(dir);
      expect(r.exitCode).not.toBe(0);
      expect(r.stdout).toContain("no-upward-from-srcsandbox: src/sandbox/child.ts → gates/catalog.ts");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
