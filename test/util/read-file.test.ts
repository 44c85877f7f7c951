import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readFileBytes, sha256OfFile } from "../../src/util/read-file.js";

describe("small-file reads", () => {
  it("return every byte and the right hash at, around and far past the scratch size", () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-read-"));
    for (const size of [0, 1, 65535, 65536, 65537, 200_000]) {
      const bytes = randomBytes(size);
      const file = join(dir, `f${size}`);
      writeFileSync(file, bytes);
      expect(readFileBytes(file).equals(bytes), `size ${size}`).toBe(true);
      expect(sha256OfFile(file)).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
    // A copy, not a view of the reused scratch buffer.
    writeFileSync(join(dir, "a"), "first");
    writeFileSync(join(dir, "b"), "other");
    const a = readFileBytes(join(dir, "a"));
    readFileBytes(join(dir, "b"));
    expect(a.toString()).toBe("first");
    expect(() => readFileBytes(join(dir, "missing"))).toThrow(/ENOENT/);
  });
});
