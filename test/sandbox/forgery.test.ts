/**
 * Red team: modules that try to forge a gate's verdict from inside the sandbox child instead of being right.
 * Each one is wrong (or writes on the result channel), so each must fail, and for the reason it is wrong.
 * On the code before the collect-in-child / judge-in-parent split, the forgeries marked "passed before"
 * made their gate report a pass.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runGate } from "../../gates/registry.js";

const fx = (f: string) => join(import.meta.dirname, "fixtures", "forgery", f);

interface Forgery {
  file: string;
  gate: string;
  options?: Record<string, unknown>;
  /** A failed check with this id, whose message matches `message` when given. */
  fails: string;
  message?: RegExp;
}

const FORGERIES: Forgery[] = [
  // passed before: Buffer.from rewrote the child's answer on its way out.
  { file: "buffer-from.js", gate: "conservation", fails: "sum" },
  // passed before: `passed` was checks.every(…) in the child.
  { file: "array-every.js", gate: "conservation", fails: "sum" },
  // passed before: a NaN slope read as linear.
  { file: "math-log.js", gate: "complexity", options: { input: "events-users" }, fails: "growth" },
  // passed before (sql-text): the SQL-text check used String.prototype.includes in the child.
  { file: "string-includes.js", gate: "tenant-isolation", fails: "sql-text" },
  { file: "string-includes.js", gate: "tenant-isolation", fails: "static-sql" },
  // passed before: the nonce was a string in the child's heap.
  { file: "heap-snapshot.js", gate: "conservation", fails: "sum" },
  { file: "global-json.js", gate: "conservation", fails: "sum" },
  { file: "object-keys.js", gate: "analytics", fails: "count" },
  { file: "counter-detach.js", gate: "complexity", options: { input: "events-users" }, fails: "growth" },
  // A correct module that also writes its own lines on fd 3: the run fails as tampered, whatever it computed.
  {
    file: "fd3-spray.js",
    gate: "conservation",
    fails: "load",
    message: /tampered.*unsigned line|wrong signature/,
  },
  // The digest the child signs comes from a patched Hash: the signature cannot verify.
  { file: "hash-patch.js", gate: "conservation", fails: "load", message: /tampered.*wrong signature/ },
];

describe("forged verdicts fail", () => {
  it.each(FORGERIES)(
    "$file on $gate fails $fails",
    async (f) => {
      const r = await runGate(f.gate, fx(f.file), { options: f.options, seed: 424242, timeoutMs: 60_000 });
      expect(r.passed).toBe(false);
      const check = r.checks.find((c) => c.id === f.fails);
      expect(check, JSON.stringify(r.checks)).toBeDefined();
      expect(check?.passed).toBe(false);
      if (f.message) expect(check?.message).toMatch(f.message);
    },
    120_000,
  );
});
