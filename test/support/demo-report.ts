/**
 * The demo PR's report as the bundled CLI writes it (`skillgate run` on examples/demo-repo against
 * examples/demo-repo-base, `--json`, `--html` and `--markdown`), made once per state of the sources and of the demo
 * and shared by the test files that only read it (the review page in Chromium): each used to run the demo on its
 * own, about 5 s of CPU each. It lives beside the bundle it was made with (test/support/dist.ts), under a name that
 * hashes the demo's two folders, so an edited source or demo gets a new one; test files asking at the same time
 * wait for the one that makes it.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { execa } from "execa";
import { bundledDist, onceAcrossProcesses } from "./dist.js";

const ROOT = resolve(import.meta.dirname, "../..");
const HEAD = join(ROOT, "examples/demo-repo");
const BASE = join(ROOT, "examples/demo-repo-base");

export interface DemoReport {
  /** The folder holding report.json, report.html and summary.md: shared, so read it and write elsewhere. */
  dir: string;
  /** The CLI's exit code (1: the demo PR fails its check). */
  exitCode: number;
}

/** Every file of the demo's two folders, hashed. */
function demoHash(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile())
        hash
          .update(`${relative(ROOT, p)}\0`)
          .update(readFileSync(p))
          .update("\0");
    }
  };
  walk(HEAD);
  walk(BASE);
  return hash.digest("hex").slice(0, 16);
}

/** Makes the demo's report with today's bundle, once; later calls (from any test process) read it. */
export async function demoReport(): Promise<DemoReport> {
  const dist = await bundledDist();
  const dir = join(dirname(dist), `demo-report-${demoHash()}`);
  const marker = join(dir, "complete.json");
  await onceAcrossProcesses(dir, "complete.json", "demoReport", async () => {
    const out = (f: string) => join(dir, f);
    const r = await execa(
      process.execPath,
      [join(dist, "cli.js"), "run", "--repo", HEAD, "--base-dir", BASE, "--json", out("report.json")].concat([
        "--html",
        out("report.html"),
        "--markdown",
        out("summary.md"),
        "--quiet",
        "--no-cache",
      ]),
      { reject: false },
    );
    writeFileSync(marker, JSON.stringify({ exitCode: r.exitCode }));
  });
  return { dir, ...(JSON.parse(readFileSync(marker, "utf8")) as { exitCode: number }) };
}
