import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createAgent } from "../../src/agents/index.js";
import {
  buildIndex,
  LEXICAL_FIRE_THRESHOLD,
  routeLexical,
  stem,
  tokenize,
} from "../../src/detect/lexical-router.js";
import { nearDuplicateDescriptions, nearDuplicateWarnings } from "../../src/detect/near-duplicates.js";

/** Every pair's cosine, compared one by one: the exact search the index must agree with. */
const brute = (cat: { name: string; description: string }[]) => {
  const index = buildIndex(cat, (e) => e.description);
  const vec = index.docs.map((d) => new Map([...d].map(([t, tf]) => [t, tf * (index.idf.get(t) ?? 0)])));
  const norm = (v: Map<string, number>) => Math.sqrt([...v.values()].reduce((a, x) => a + x * x, 0));
  return vec.map((vi, i) =>
    vec.map((vj, j) => {
      if (i === j) return Number.NaN;
      let dot = 0;
      for (const [t, x] of vi) dot += x * (vj.get(t) ?? 0);
      return dot / (norm(vi) * norm(vj) || 1);
    }),
  );
};

const CORPUS = "test/fixtures/corpus/anthropics-skills";

function corpus(): { name: string; description: string }[] {
  return readdirSync(CORPUS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => {
      const raw = readFileSync(`${CORPUS}/${d.name}/SKILL.md`, "utf8");
      const fm = parse(raw.split(/^---$/m)[1]!) as { name: string; description: string };
      return { name: fm.name, description: fm.description };
    });
}

describe("lexical router (BM25 proxy)", () => {
  it("tokenises without routing noise and stems lightly", () => {
    expect(tokenize("Use this skill when the user asks to split invoices")).toEqual(["split", "invoice"]);
    expect(stem("splitting")).toBe("split");
    expect(stem("policies")).toBe("policy");
    expect(stem("class")).toBe("class");
  });

  it("routes real prompts to the right skill of the anthropics/skills corpus, and unrelated ones nowhere", () => {
    const cat = corpus();
    expect(cat.length).toBe(12);
    expect(routeLexical("Create a slack gif of a dancing cat", cat).fired).toBe("slack-gif-creator");
    expect(routeLexical("Build an MCP server for the GitHub API", cat).fired).toBe("mcp-builder");
    expect(routeLexical("test my web app with playwright", cat).fired).toBe("webapp-testing");
    const poem = routeLexical("Write me a poem about rain", cat);
    expect(poem.fired).toBeNull();
    expect(poem.scores[0]!.score).toBeLessThan(LEXICAL_FIRE_THRESHOLD);
  });

  it("warns about near-duplicate descriptions, and not about the distinct real ones", () => {
    const cat = corpus();
    expect(nearDuplicateDescriptions(cat)).toEqual([]);
    const dup = [
      ...cat,
      {
        name: "gif-maker",
        description:
          "Make animated GIFs optimized for Slack: constraints, validation and animation concepts for Slack GIFs.",
      },
    ];
    const found = nearDuplicateDescriptions(dup);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatchObject({ name: "gif-maker", nearest: "slack-gif-creator", others: 1 });
    expect(found[1]).toMatchObject({ name: "slack-gif-creator", nearest: "gif-maker", others: 1 });
    expect(found[0]!.similarity).toBeGreaterThan(0.5);
  });

  it("one warning per skill however many share its description (a catalogue's boilerplate, thousands of times)", () => {
    const boiler = Array.from({ length: 5000 }, (_, i) => ({
      name: `b${i}`,
      description: "Use when this capability is needed.",
    }));
    const cat = [
      ...corpus(),
      ...boiler,
      { name: "almost", description: "Use when this capability is needed. Capability needed!" },
    ];
    const found = nearDuplicateDescriptions(cat);
    expect(found).toHaveLength(5001);
    const b7 = found.find((d) => d.name === "b7")!;
    // Ties (here all at cosine 1) go to the first name in sort order.
    expect(b7).toMatchObject({ nearest: "almost", others: 5000 });
    expect(b7.similarity).toBeCloseTo(1, 12);
    expect(found.find((d) => d.name === "almost")).toMatchObject({ nearest: "b0", others: 5000 });
    const alone = nearDuplicateDescriptions(boiler.slice(0, 3));
    expect(alone.map((d) => `${d.name}→${d.nearest} ${d.others}`)).toEqual(["b0→b1 2", "b1→b0 2", "b2→b0 2"]);
    // Empty or stop-word-only descriptions weigh nothing: never near-duplicates of each other.
    expect(
      nearDuplicateDescriptions([
        { name: "x", description: "" },
        { name: "y", description: "" },
      ]),
    ).toEqual([]);
  });

  it("finds for each skill what comparing every pair finds, without comparing every pair", () => {
    const WORDS = [
      "pdf",
      "form",
      "invoice",
      "split",
      "cents",
      "slack",
      "gif",
      "sql",
      "tenant",
      "chart",
      "rain",
    ];
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }), { maxLength: 25 }),
        fc.constantFrom(0.3, 0.5, 0.8),
        (descs, threshold) => {
          const cat = descs.map((d, i) => ({ name: `s${i}`, description: d.join(" ") }));
          const fast = new Map(nearDuplicateDescriptions(cat, threshold).map((d) => [d.name, d]));
          const sims = brute(cat);
          sims.forEach((row, i) => {
            const others = row.filter((x) => x >= threshold);
            // A similarity a rounding away from the threshold may fall either side: such a skill is not judged.
            if (row.some((x) => Math.abs(x - threshold) < 1e-9)) return;
            const got = fast.get(`s${i}`);
            if (others.length === 0) {
              expect(got).toBeUndefined();
              return;
            }
            expect(got?.others).toBe(others.length);
            const max = Math.max(...others);
            expect(got!.similarity).toBeCloseTo(max, 9);
            expect(row[Number(got!.nearest.slice(1))]).toBeCloseTo(max, 9);
          });
        },
      ),
      { numRuns: 200, seed: 5 },
    );
  });

  it("finds every pair comparing all pairs finds on catalogues shaped like a registry's (common and rare words, forks)", () => {
    // Words every description shares, a long tail of rare ones, and forks (another description, one word changed):
    // the shapes where the index leaves common words out on both sides and probes rare words first.
    const COMMON = ["data", "file", "report", "table", "chart", "query", "build", "test", "review", "deploy"];
    const RARE = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}x`);
    const word = fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...COMMON) },
      { weight: 3, arbitrary: fc.constantFrom(...RARE) },
    );
    const pairsOf = (cat: { name: string; description: string }[], threshold: number) => {
      const found = nearDuplicateDescriptions(cat, threshold);
      return new Map(found.map((d) => [d.name, d.others]));
    };
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { minLength: 1, maxLength: 14 }), { minLength: 2, maxLength: 150 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), word), { maxLength: 20 }),
        fc.constantFrom(0.3, 0.5, 0.7, 0.9),
        (descs, forks, threshold) => {
          for (const [from, at, w] of forks) {
            const copy = [...descs[from % descs.length]!];
            copy[at % copy.length] = w;
            descs.push(copy);
          }
          const cat = descs.map((d, i) => ({ name: `s${i}`, description: d.join(" ") }));
          const sims = brute(cat);
          const got = pairsOf(cat, threshold);
          sims.forEach((row, i) => {
            if (row.some((x) => Math.abs(x - threshold) < 1e-9)) return;
            const others = row.filter((x) => x >= threshold).length;
            expect(got.get(`s${i}`) ?? 0).toBe(others);
          });
        },
      ),
      // No shrinking: each step compares every pair of up to 170 descriptions.
      { numRuns: 150, seed: 11, endOnFailure: true },
    );
  });

  it("near-duplicate warnings are located at each skill's description", () => {
    const mk = (name: string, description: string, line: number) => ({
      name,
      dir: `.claude/skills/${name}`,
      path: `.claude/skills/${name}/SKILL.md`,
      description,
      frontmatter: {},
      body: "",
      raw: "",
      layout: "agent-skills" as const,
      folder: { files: [], contentHash: "h" },
      loc: {
        frontmatter: { file: `.claude/skills/${name}/SKILL.md`, line: 1, column: 1 },
        description: { file: `.claude/skills/${name}/SKILL.md`, line, column: 14 },
      },
    });
    const ds = nearDuplicateWarnings([
      mk("split-cents", "Split money in cents among people without losing a cent.", 3),
      mk("share-cents", "Split money in cents among people, never losing a cent.", 4),
      mk("contrast", "Check WCAG colour contrast of palettes.", 3),
    ]);
    expect(ds).toHaveLength(2);
    // One per skill, in name order at equal similarity.
    expect(ds[0]).toMatchObject({
      file: ".claude/skills/share-cents/SKILL.md",
      line: 4,
      column: 14,
      severity: "warning",
    });
    expect(ds[0]!.message).toContain("near-duplicate of split-cents's (lexical similarity");
    expect(ds[1]).toMatchObject({ file: ".claude/skills/split-cents/SKILL.md", line: 3 });
    expect(ds[1]!.message).toContain("near-duplicate of share-cents's");
  });

  it("is registered as the `lexical` agent and answers trigger trials as a labelled proxy", async () => {
    const adapter = createAgent({ adapter: "lexical" }, { repoDir: "/x" });
    expect(await adapter.identity()).toContain("lexical/bm25");
    const res = await adapter.run(
      {
        key: "k",
        skill: "mcp-builder",
        caseId: "trigger:0",
        mode: "trigger",
        trial: 0,
        prompt: "Build an MCP server for the GitHub API",
        files: [],
        install: corpus().map((s) => ({ ...s, sourceDir: "/x", files: [], contentHash: "h" })),
        seed: 1,
      },
      {} as never,
    );
    expect(res.skillsActivated).toEqual(["mcp-builder"]);
    expect(res.skillsRegistered).toHaveLength(12);
    expect(res.notes?.[0]).toContain("proxy");
  });
});
