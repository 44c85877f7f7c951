import { spawnSync } from "node:child_process";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { GATE_IDS } from "../../gates/ids.js";
import { pickCollector } from "../../src/sandbox/child.js";
import { childFile, gateFolders } from "../../src/sandbox/child-build.mjs";
import { childScript } from "../../src/sandbox/compile.js";
import { MAC_KEY_BYTES } from "../../src/sandbox/protocol.js";

const root = resolve(import.meta.dirname, "../..");
/** How a built child names the gate it serves (the collector's `serveChild("x", …)` call). */
const gateMarker = (id: string) => `(${JSON.stringify(id)},`;
/** A name only fast-check's own code holds (one of its random generators). */
const FAST_CHECK_INTERNAL = "xoroshiro128plus";

describe("sandbox children: one per gate", () => {
  it("the gate folders the build reads are exactly GATE_IDS, each exporting one collector with its id", async () => {
    expect(gateFolders(root)).toEqual([...GATE_IDS].sort());
    for (const id of GATE_IDS) {
      const mod = (await import(join(root, "gates", id, "probe.ts"))) as Record<string, unknown>;
      expect(pickCollector(mod, id).id).toBe(id);
    }
    expect(() => pickCollector({ a: { id: "queue", start() {} } }, "leakage")).toThrow(/0 collectors/);
  });

  it("each gate's child serves its own gate and no other, without fast-check; the predicate child none", async () => {
    for (const id of GATE_IDS) {
      const file = await childScript(id);
      expect(file.endsWith(childFile(id))).toBe(true);
      const code = readFileSync(file, "utf8");
      for (const other of GATE_IDS)
        expect(code.includes(gateMarker(other)), `${id} ∋ ${other}`).toBe(other === id);
      // CommonJS: no ESM loader in the child (an ESM entry costs Node 20 ~45 ms of start-up).
      expect(code).not.toMatch(/^import[\s{*]/m);
      // Probes are generated and judged in the parent: the child never loads fast-check.
      expect(code).not.toContain(FAST_CHECK_INTERNAL);
    }
    expect(existsSync(join(dirname(await childScript()), "fast-check.cjs"))).toBe(false);
    expect(existsSync(join(dirname(await childScript()), "preload-complexity.cjs"))).toBe(true);
    const predicate = readFileSync(await childScript(), "utf8");
    for (const id of GATE_IDS) expect(predicate.includes(gateMarker(id))).toBe(false);
  }, 120_000);

  it("a child refuses a task for another gate than its own", async () => {
    const envelope = {
      task: { kind: "gate", gate: "leakage", module: "m.js" },
      modulePath: join(root, "gates/leakage/fixtures/good-group-hash.ts"),
      assets: { sqlWasm: "" },
    };
    const key = randomBytes(MAC_KEY_BYTES);
    const r = spawnSync(process.execPath, [await childScript("contrast")], {
      input: Buffer.concat([key, Buffer.from(`${JSON.stringify(envelope)}\n`)]),
      stdio: ["pipe", "pipe", "pipe", "pipe"],
      env: { PATH: process.env.PATH ?? "" },
      encoding: "utf8",
    });
    const answer = String(r.output[3] ?? "");
    expect(answer).toContain("this sandbox child runs gate 'contrast', not 'leakage'");
    expect(answer).toContain('"failure":"load"');
    // Signed with the key it was given.
    const [mac, json] = [answer.slice(0, 64), answer.slice(65).trimEnd()];
    const digest = createHash("sha256").update(json).digest();
    expect(mac).toBe(createHmac("sha256", key).update(digest).digest("hex"));
  });
});
