import { createHmac, randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAC_KEY_BYTES, macSigner, utf8 } from "../../src/sandbox/mac.js";

describe("the child's HMAC-SHA256", () => {
  it("equals node:crypto's on any string, at every length around the block edges", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: MAC_KEY_BYTES, maxLength: MAC_KEY_BYTES }),
        fc.string({ unit: "binary", maxLength: 300 }),
        (key, message) => {
          const expected = createHmac("sha256", Buffer.from(key)).update(message, "utf8").digest("hex");
          expect(macSigner(new Uint8Array(key))(message)).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
    const key = randomBytes(MAC_KEY_BYTES);
    for (let n = 0; n < 200; n++) {
      const message = "é".repeat(n % 7) + "x".repeat(n);
      expect(macSigner(new Uint8Array(key))(message)).toBe(
        createHmac("sha256", key).update(message).digest("hex"),
      );
    }
  });

  it("forgets the key it was given: the caller's bytes are zeroed", () => {
    const key = new Uint8Array(randomBytes(MAC_KEY_BYTES));
    macSigner(key);
    expect([...key].every((b) => b === 0)).toBe(true);
  });

  it("encodes UTF-8 as Buffer does, lone surrogates included", () => {
    for (const s of ["", "a", "ü", "€", "😀", "\ud800", "x\udc00y", "\ud83d"]) {
      const { bytes, length } = utf8(s);
      expect(Buffer.from(bytes.subarray(0, length))).toEqual(Buffer.from(s, "utf8"));
    }
  });
});
