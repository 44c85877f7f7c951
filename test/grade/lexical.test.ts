import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createAgent } from "../../src/agents/index.js";
import {
  buildIndex,
  LEXICAL_FIRE_THRESHOLD,
  nearDuplicateDescriptions,
  nearDuplicateWarnings,
  routeLexical,
  stem,
  tokenize,
} from "../../src/grade/lexical-router.js";

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
    expect(found[0]).toMatchObject({ a: "slack-gif-creator", b: "gif-maker" });
    expect(found[0]!.similarity).toBeGreaterThan(0.5);
  });

  it("finds exactly the pairs that comparing every pair finds, without comparing every pair", () => {
    const brute = (cat: { name: string; description: string }[], threshold = 0.5) => {
      const index = buildIndex(cat);
      const vec = index.docs.map((d) => new Map([...d].map(([t, tf]) => [t, tf * (index.idf.get(t) ?? 0)])));
      const norm = (v: Map<string, number>) => Math.sqrt([...v.values()].reduce((a, x) => a + x * x, 0));
      const out: { a: string; b: string; similarity: number }[] = [];
      for (let i = 0; i < vec.length; i++)
        for (let j = i + 1; j < vec.length; j++) {
          let dot = 0;
          for (const [t, x] of vec[i]!) dot += x * (vec[j]!.get(t) ?? 0);
          const sim = dot / (norm(vec[i]!) * norm(vec[j]!) || 1);
          if (sim >= threshold) out.push({ a: index.names[i]!, b: index.names[j]!, similarity: sim });
        }
      return out.sort((x, y) => y.similarity - x.similarity);
    };
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
          const fast = nearDuplicateDescriptions(cat, threshold);
          const slow = brute(cat, threshold).filter((p) => Math.abs(p.similarity - threshold) > 1e-9);
          const near = (p: { similarity: number }) => Math.abs(p.similarity - threshold) > 1e-9;
          expect(
            fast
              .filter(near)
              .map((p) => `${p.a}~${p.b}`)
              .sort(),
          ).toEqual(slow.map((p) => `${p.a}~${p.b}`).sort());
          for (const p of fast)
            expect(p.similarity).toBeCloseTo(
              brute(cat, 0).find((q) => q.a === p.a && q.b === p.b)!.similarity,
              9,
            );
        },
      ),
      { numRuns: 200, seed: 5 },
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
    expect(ds[0]).toMatchObject({
      file: ".claude/skills/split-cents/SKILL.md",
      line: 3,
      column: 14,
      severity: "warning",
    });
    expect(ds[0]!.message).toContain("near-duplicate of share-cents");
    expect(ds[1]).toMatchObject({ file: ".claude/skills/share-cents/SKILL.md", line: 4 });
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
