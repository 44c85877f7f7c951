import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkoutTree } from "../../src/verdict/checkout-tree.js";

const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), "sg-tree-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("checkoutTree (#27: comparisons never stop early)", () => {
  it("compares whole files: a byte changed past 4 MiB changes the digest", () => {
    const [a, b] = [temp(), temp()];
    const big = Buffer.alloc(6 * 1024 * 1024, 0x61);
    writeFileSync(join(a, "fixture.bin"), big);
    big[5 * 1024 * 1024 + 7] = 0x62;
    writeFileSync(join(b, "fixture.bin"), big);
    expect(checkoutTree(a).digest("fixture.bin")).toMatch(/^[0-9a-f]{64}$/);
    expect(checkoutTree(a).digest("fixture.bin")).not.toBe(checkoutTree(b).digest("fixture.bin"));
    expect(checkoutTree(a).text("fixture.bin")).toBeUndefined(); // too large to parse; still compared
  });

  it("reads nothing outside the checkout: `..`, a link leaving it, a folder", () => {
    const outside = temp();
    writeFileSync(join(outside, "secret.txt"), "x");
    const root = temp();
    mkdirSync(join(root, "suite"));
    writeFileSync(join(root, "suite/a.txt"), "a");
    symlinkSync(join(outside, "secret.txt"), join(root, "suite/link.txt"));
    const tree = checkoutTree(root);
    expect(tree.digest("../secret.txt")).toBeUndefined();
    expect(tree.digest("suite/link.txt")).toBeUndefined();
    expect(tree.digest("suite")).toBeUndefined();
    expect(tree.text("suite/a.txt")).toBe("a");
    expect(tree.list("suite")).toEqual(["suite/a.txt"]);
    expect(checkoutTree(undefined).digest("suite/a.txt")).toBeUndefined();
  });
});
