import { describe, expect, test } from "vitest";
import { cacheKey, canonicalJson, sha256Hex, trialKey } from "../../src/plan/keys.js";

const base = {
  prompt: "Split 1000 cents among 3",
  files: [
    { to: "a.json", sha256: "aa" },
    { to: "b.json", sha256: "bb" },
  ],
  trial: 0,
};

describe("trialKey", () => {
  test("is sha256 hex and stable under key order and file order", () => {
    const k = trialKey({ mode: "skill", skillContentHash: "s1", ...base });
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    expect(
      trialKey({ ...base, files: [...base.files].reverse(), skillContentHash: "s1", mode: "skill" }),
    ).toBe(k);
  });

  test("skill keys change with the skill content; baseline keys do not", () => {
    expect(trialKey({ mode: "skill", skillContentHash: "s1", ...base })).not.toBe(
      trialKey({ mode: "skill", skillContentHash: "s2", ...base }),
    );
    expect(trialKey({ mode: "baseline", skillContentHash: "s1", ...base })).toBe(
      trialKey({ mode: "baseline", skillContentHash: "s2", ...base }),
    );
  });

  test("trigger keys carry the catalogue hash", () => {
    expect(trialKey({ mode: "trigger", catalogueHash: "c1", ...base })).not.toBe(
      trialKey({ mode: "trigger", catalogueHash: "c2", ...base }),
    );
  });

  test("every trial index, prompt, file content, mode and constraint block is its own key", () => {
    const k = trialKey({ mode: "baseline", ...base, constraints: ["x"] });
    expect(trialKey({ mode: "baseline", ...base, constraints: ["x"], trial: 1 })).not.toBe(k);
    expect(trialKey({ mode: "baseline", ...base, constraints: ["x"], prompt: "other" })).not.toBe(k);
    expect(trialKey({ mode: "baseline", ...base, constraints: ["y"] })).not.toBe(k);
    expect(
      trialKey({
        mode: "baseline",
        ...base,
        constraints: ["x"],
        files: [{ to: "a.json", sha256: "changed" }],
      }),
    ).not.toBe(k);
    expect(trialKey({ mode: "skill", ...base })).not.toBe(trialKey({ mode: "trigger", ...base }));
  });

  test("cacheKey separates identities", () => {
    const k = trialKey({ mode: "skill", skillContentHash: "s", ...base });
    expect(cacheKey(k, "claude-code/2.1.332/sonnet")).not.toBe(cacheKey(k, "claude-code/2.1.332/opus"));
    expect(cacheKey(k, "a")).toMatch(/^[0-9a-f]{64}$/);
  });

  test("canonicalJson sorts keys at every level and drops undefined", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: undefined }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"z":1}]},"b":1}',
    );
  });
});

describe("catalogueHash: what a router sees", () => {
  const skill = (name: string, description: string, body: string, contentHash: string) => ({
    name,
    description,
    frontmatter: { name, description },
    body,
    folder: { files: ["SKILL.md"], contentHash },
  });
  test("a body or file edit keeps every trigger key; a description or other frontmatter edit changes them", async () => {
    const { catalogueHash } = await import("../../src/plan/plan.js");
    const a = skill("split-cents", "Split money", "Round each share.", "h1");
    const b = skill("tenant-sql", "Tenant SQL", "Filter by tenant.", "h2");
    const h = catalogueHash([a, b]);
    expect(catalogueHash([b, a])).toBe(h);
    expect(
      catalogueHash([
        { ...a, body: "Largest remainder.", folder: { files: ["SKILL.md", "x.md"], contentHash: "h9" } },
        b,
      ]),
    ).toBe(h);
    expect(
      catalogueHash([{ ...a, frontmatter: { ...a.frontmatter, description: "Split cents" } }, b]),
    ).not.toBe(h);
    expect(
      catalogueHash([{ ...a, frontmatter: { ...a.frontmatter, "disable-model-invocation": true } }, b]),
    ).not.toBe(h);
    expect(catalogueHash([a])).not.toBe(h);
  });

  test("is sha256 of the sorted (name, frontmatter) pairs' canonical JSON: trial cache keys stay as they were", async () => {
    const { catalogueHash } = await import("../../src/plan/plan.js");
    const a = skill("split-cents", 'Split "money"', "", "h1");
    const b = skill("tenant-sql", "Tenant SQL", "", "h2");
    const c = { ...b, frontmatter: { ...b.frontmatter, metadata: { z: [1, { y: "x" }], a: null } } };
    for (const catalogue of [[a, b], [c, a], [a]])
      expect(catalogueHash(catalogue)).toBe(
        sha256Hex(
          canonicalJson(
            catalogue
              .map((s) => [s.name, s.frontmatter])
              .sort(([x], [y]) => (String(x) < String(y) ? -1 : 1)),
          ),
        ),
      );
  });
});
