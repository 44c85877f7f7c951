import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createAgent } from "../../src/agents/index.js";
import {
  LEXICAL_FIRE_THRESHOLD,
  nearDuplicateDescriptions,
  nearDuplicateWarnings,
  routeLexical,
  stem,
  tokenize,
} from "../../src/grade/lexical-router.js";

const CORPUS = "/work/shared/corpus/anthropics-skills";

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

  it("near-duplicate warnings are located at each skill's description", () => {
    const mk = (name: string, description: string, line: number) => ({
      name,
      dir: `.claude/skills/${name}`,
      path: `.claude/skills/${name}/SKILL.md`,
      description,
      frontmatter: {},
      body: "",
      raw: "",
      contentHash: "h",
      files: [],
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
