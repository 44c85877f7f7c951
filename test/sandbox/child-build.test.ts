import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { GATE_IDS } from "../../gates/ids.js";
import { pickGate } from "../../src/sandbox/child.js";
import { childFile, gateFolders } from "../../src/sandbox/child-build.mjs";
import { childScript } from "../../src/sandbox/compile.js";

const root = resolve(import.meta.dirname, "../..");
/** How a built child names the gate it holds (minified `{id: "x", defaultExports: …}`). */
const gateMarker = (id: string) => `id:${JSON.stringify(id)},defaultExports`;
/** A name only fast-check's own code holds (one of its random generators). */
const FAST_CHECK_INTERNAL = "xoroshiro128plus";

describe("sandbox children: one per gate", () => {
  it("the gate folders the build reads are exactly GATE_IDS, each exporting one gate with its id", async () => {
    expect(gateFolders(root)).toEqual([...GATE_IDS].sort());
    for (const id of GATE_IDS) {
      const mod = (await import(join(root, "gates", id, "index.ts"))) as Record<string, unknown>;
      expect(pickGate(mod, id).id).toBe(id);
    }
    expect(() => pickGate({ a: { id: "queue", run() {} } }, "leakage")).toThrow(/0 gates/);
  });

  it("each gate's child holds its own gate and no other; the predicate child holds none", async () => {
    for (const id of GATE_IDS) {
      const file = await childScript(id);
      expect(file.endsWith(childFile(id))).toBe(true);
      const code = readFileSync(file, "utf8");
      for (const other of GATE_IDS)
        expect(code.includes(gateMarker(other)), `${id} ∋ ${other}`).toBe(other === id);
      // CommonJS: no ESM loader in the child (an ESM entry costs Node 20 ~45 ms of start-up).
      expect(code).not.toMatch(/^import[\s{*]/m);
      // fast-check is required from the one shared file beside it, never inlined again.
      expect(code).not.toContain(FAST_CHECK_INTERNAL);
    }
    const shared = readFileSync(join(dirname(await childScript()), "fast-check.cjs"), "utf8");
    expect(shared).toContain(FAST_CHECK_INTERNAL);
    const users = [];
    for (const id of GATE_IDS)
      if (readFileSync(await childScript(id), "utf8").includes('require("./fast-check.cjs")')) users.push(id);
    expect(users.sort()).toEqual(
      ["analytics", "boundary", "conservation", "leakage", "queue", "tenant-isolation"].sort(),
    );
    const predicate = readFileSync(await childScript(), "utf8");
    for (const id of GATE_IDS) expect(predicate.includes(gateMarker(id))).toBe(false);
  }, 120_000);

  it("a child refuses a task for another gate than its own", async () => {
    const envelope = {
      nonce: "n0",
      task: { kind: "gate", gate: "leakage", module: "m.js", seed: 1 },
      modulePath: join(root, "gates/leakage/fixtures/good-group-hash.ts"),
      assets: { sqlWasm: "" },
    };
    const r = spawnSync(process.execPath, [await childScript("contrast")], {
      input: JSON.stringify(envelope),
      stdio: ["pipe", "pipe", "pipe", "pipe"],
      env: { PATH: process.env.PATH ?? "" },
      encoding: "utf8",
    });
    const answer = String(r.output[3] ?? "");
    expect(answer).toContain("this sandbox child runs gate 'contrast', not 'leakage'");
    expect(answer).toContain('"failure":"load"');
  });
});
