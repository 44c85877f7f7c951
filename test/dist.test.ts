import { spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledDist } from "./support/dist.js";

const root = resolve(import.meta.dirname, "..");

describe("dist/", () => {
  it("is exactly what the sources bundle to (run `npm run bundle` and commit dist/)", async () => {
    const fresh = await bundledDist();
    const list = (dir: string) =>
      (readdirSync(dir, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
        .filter((e) => e.isFile())
        .map((e) => relative(dir, join(e.parentPath, e.name)))
        .sort();
    const committed = list(join(root, "dist"));
    expect(committed).toEqual(list(fresh));
    for (const f of committed) {
      const same = readFileSync(join(root, "dist", f)).equals(readFileSync(join(fresh, f)));
      expect(same, `dist/${f} is stale: run npm run bundle`).toBe(true);
    }
  }, 120_000);

  it("the action's start-up loads no HTTP stack (@actions/core's OIDC client and undici wait until used)", () => {
    // Static imports of dist/index.js, transitively: what Node loads before the first log line.
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(join(root, "dist", file), "utf8");
      for (const m of code.matchAll(/(?:^|[;}\s])(?:import|export)[^;("']*?from\s*"\.\/([^"]+)"/g))
        visit(m[1]!);
    };
    visit("index.js");
    expect(seen.size).toBeGreaterThan(1);
    // The HTTP client is in a chunk the cache client imports when it is reached.
    const withUndici = [...seen].filter((f) =>
      readFileSync(join(root, "dist", f), "utf8").includes("undici"),
    );
    expect(withUndici).toEqual([]);
  });

  it("runs with no node_modules anywhere near it (as the Actions runtime has none)", () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-dist-alone-"));
    // The gate's module lies at the top of it: the sandbox uid that compiles it must be able to read it.
    chmodSync(dir, 0o755);
    cpSync(join(root, "dist"), join(dir, "dist"), { recursive: true });
    cpSync(join(root, "examples"), join(dir, "examples"), { recursive: true });
    cpSync(join(root, "package.json"), join(dir, "package.json"));
    const run = (args: string[]) =>
      spawnSync(process.execPath, [join(dir, "dist/cli.js"), ...args], {
        cwd: dir,
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "" },
      });
    const v = run(["validate", "--repo", "examples/demo-repo"]);
    expect(v.stderr).toBe("");
    expect(v.status).toBe(0);
    // the demo: replayed trials, gates in the sandbox child (sql.js wasm and TS transform from dist/)
    const r = run([
      "run",
      "--repo",
      "examples/demo-repo",
      "--base-dir",
      "examples/demo-repo-base",
      "--quiet",
      "--no-cache",
    ]);
    expect(r.stdout).toContain("skillgate: FAIL");
    expect(r.stdout).toContain(".agent/evals/split-cents/prompts/split-1000-3.yaml:12");
    expect(r.stdout).not.toMatch(/could not run|Cannot find (module|package)/);
    expect(r.status).toBe(1);
    // One esbuild: the native binary dist/ ships for linux-x64 compiles the module with nothing installed.
    cpSync(join(root, "gates/conservation/fixtures/good-largest-remainder.ts"), join(dir, "gate-module.ts"));
    const gate = () => run(["gate", "conservation", "gate-module.ts", "--json"]);
    const shipped = gate();
    expect(shipped.stderr).not.toMatch(/no esbuild|Cannot find/);
    expect(JSON.parse(shipped.stdout)).toMatchObject({ gate: "conservation", passed: true });
    // Without it and nothing installed, the gate could not run (exit 3, the fix named): never a FAIL of the module.
    rmSync(join(dir, "dist/esbuild-native"), { recursive: true, force: true });
    const missing = gate();
    expect(missing.status).toBe(3);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toMatch(/no esbuild for linux-x64: dist\/esbuild-native\/ is incomplete/);
    // Any other platform: the esbuild package npm installed beside it (here linked from ours) does the compile.
    mkdirSync(join(dir, "node_modules/@esbuild"), { recursive: true });
    symlinkSync(join(root, "node_modules/esbuild"), join(dir, "node_modules/esbuild"));
    symlinkSync(
      join(root, `node_modules/@esbuild/${process.platform}-${process.arch}`),
      join(dir, `node_modules/@esbuild/${process.platform}-${process.arch}`),
    );
    const installed = gate();
    expect(installed.stderr).not.toMatch(/no esbuild|Cannot find/);
    expect(JSON.parse(installed.stdout)).toMatchObject({ gate: "conservation", passed: true });
  }, 240_000);
});
