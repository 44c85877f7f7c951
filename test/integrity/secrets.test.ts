/**
 * Issue #17 item 4, end to end through a freshly bundled `dist/cli.js`: skillgate's environment holds a GitHub
 * token and a database URL in an innocently named variable; a `command` agent prints both, raw and encoded
 * (base64 at an odd offset, base64url, hex, URL-encoding; #27: every byte `%XX` in either case, every character
 * `\uXXXX`, base64 wrapped at 76, 64 and 10 characters), in its answer, in a file it writes and in its error
 * output. No form of either secret may reach stdout, stderr, the JSON report, JUnit, SARIF, the skill-creator
 * exports, the HTML review report, the Markdown summary, the replay recordings or the trial cache — and the report must show `[REDACTED]` where they were
 * (so the test cannot pass by the leak not happening).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodingsOf } from "../../src/util/redact.js";
import { bundledDist } from "../support/dist.js";
import { storeOf } from "../support/html-store.js";
import { writeRepo } from "../support/repo-files.js";

const TOKEN = "ghs_Zq8rT2vLm9XwK4pN7bYc3dFh6jGs1aEe0uRi";
const DB = "postgres://billing:s3cr3t-Pa55w0rd@10.0.0.7:5432/ledger";

const scratch: string[] = [];
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(d);
  return d;
};
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

const AGENT = `import { mkdirSync, writeFileSync } from "node:fs";
const token = ${JSON.stringify(TOKEN)}, db = ${JSON.stringify(DB)};
const b64 = (s) => Buffer.from(s).toString("base64");
const leaks = [
  "raw " + token,
  "b64 " + b64("x" + token + "y"),
  "b64url " + Buffer.from("Bearer " + db).toString("base64url"),
  "hex " + Buffer.from(db).toString("hex"),
  "url " + encodeURIComponent(db),
  // #27: full escapes and wrapped base64.
  "pct " + [...Buffer.from(token)].map((b) => "%" + b.toString(16).padStart(2, "0")).join(""),
  "PCT " + [...Buffer.from(db)].map((b) => "%" + b.toString(16).padStart(2, "0").toUpperCase()).join(""),
  "uni " + [...db].map((c) => "\\\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")).join(""),
  "mime\\n" + (b64("Authorization: Bearer " + token + "\\n" + db).match(/.{1,76}/g) ?? []).join("\\n"),
  "pem\\n" + (Buffer.from("k=" + db).toString("base64url").match(/.{1,64}/g) ?? []).join("\\r\\n"),
  "narrow\\n" + (b64("xy" + token).match(/.{1,10}/g) ?? []).join("\\n  "),
];
mkdirSync("src", { recursive: true });
writeFileSync("src/leak.txt", leaks.join("\\n"));
process.stderr.write("debug: " + leaks.join(" | ") + "\\n");
if (process.env.SKILLGATE_TRIAL === "1" && process.env.SKILLGATE_MODE === "skill") {
  process.stderr.write("fatal: cannot reach " + db + "\\n");
  process.exit(2);
}
process.stdout.write(JSON.stringify({ output: "Parts: 333 333 333\\n" + leaks.join("\\n"), skillsActivated: [] }));
`;

let dist: string;
let agentFile: string;
beforeAll(async () => {
  dist = await bundledDist();
  agentFile = join(temp("sg-sec-agent-"), "agent.mjs");
  writeFileSync(agentFile, AGENT);
}, 180_000);

/** Every file under `dir`, as text. */
function allText(dir: string): string {
  let out = "";
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    out += statSync(p).isDirectory() ? allText(p) : `${readFileSync(p, "utf8")}\n`;
  }
  return out;
}

describe("secrets never leave", () => {
  it("an agent that prints the runner's secrets raw and encoded leaves no form of them in any output", async () => {
    const repo = writeRepo(
      {
        ".claude/skills/split-cents/SKILL.md":
          "---\nname: split-cents\ndescription: Split money totals in cents among people without losing a cent.\n---\n# Split\n",
        ".skillgate.yml": `agent:\n  adapter: command\n  command: ${JSON.stringify(`${process.execPath} ${agentFile}`)}\ntrials: 2\ntriggerRuns: 1\n`,
        ".agent/evals/split-cents/meta.json": '{"trials": 2, "thresholds": {}}',
        ".agent/evals/split-cents/prompts/c.yaml":
          "id: c\nprompt: Split 1000 cents among 3.\nassertions:\n  - id: D:keeps-the-cent\n    type: contains\n    value: '334'\n  - id: file\n    type: file-contains\n    file: src/leak.txt\n    value: '334'\n",
      },
      "sg-sec-repo-",
    );
    scratch.push(repo);
    const out = temp("sg-sec-out-");
    const cache = temp("sg-sec-cache-");
    const r = await execa(
      process.execPath,
      [
        join(dist, "cli.js"),
        "run",
        "--repo",
        repo,
        "--json",
        join(out, "report.json"),
        "--junit",
        join(out, "junit.xml"),
        "--sarif",
        join(out, "report.sarif"),
        "--html",
        join(out, "report.html"),
        "--markdown",
        join(out, "summary.md"),
        "--record",
        join(out, "recordings"),
        "--verbose",
      ],
      {
        reject: false,
        env: { XDG_CACHE_HOME: cache, GITHUB_TOKEN: TOKEN, BILLING_DB: DB },
        timeout: 120_000,
      },
    );
    expect([1, 3]).toContain(r.exitCode);
    const report = readFileSync(join(out, "report.json"), "utf8");
    // the leak happened and was redacted where it was
    expect(report).toContain("[REDACTED]");
    // the review page keeps the transcripts (output, files), redacted as the JSON report is
    const html = readFileSync(join(out, "report.html"), "utf8");
    const page = `${html}\n${Object.values(storeOf(html)).join("\n")}`;
    expect(page).toContain("[REDACTED]");
    expect(page).toContain("src/leak.txt");
    const everything = [String(r.stdout), String(r.stderr), allText(out), allText(cache), page].join("\n");
    expect(readdirSync(out).sort()).toEqual(
      [
        "junit.xml",
        "recordings",
        "report.html",
        "report.json",
        "report.sarif",
        "report.skill-creator",
        "summary.md",
      ].sort(),
    );
    for (const form of [...encodingsOf(TOKEN), ...encodingsOf(DB)]) expect(everything).not.toContain(form);
    // Wrapped base64: with every line break taken out (raw, or escaped inside JSON), no 8-character run of any core.
    const joined = everything.replace(/(?:\r?\n|\\r\\n|\\n)[ \t]*/g, "");
    for (const secret of [TOKEN, DB])
      for (const alphabet of ["base64", "base64url"] as const)
        for (let k = 0; k < 3; k++) {
          const core = Buffer.from(secret).subarray(k).toString(alphabet);
          for (let i = 0; i + 8 <= core.length - 4; i += 4)
            expect(joined).not.toContain(core.slice(i, i + 8));
        }
  }, 180_000);
});
