/**
 * What the real Claude Code CLI lists of a repository's skills: one `claude -p` in the repository against a scripted
 * model on loopback, with a HOME of its own; the listing is the request that carries the tools (JSON-escaped).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { startScriptedAnthropic, text } from "./scripted-anthropic.js";

const CLAUDE = resolve(import.meta.dirname, "../../node_modules/.bin/claude");

export async function claudeCodeListing(repo: string): Promise<string> {
  let listing = "";
  const server = await startScriptedAnthropic((r) => {
    if (r.hasTools) listing = r.raw;
    return text("ok");
  });
  try {
    await execa(CLAUDE, ["-p", "hello"], {
      cwd: repo,
      input: "",
      reject: false,
      env: {
        ...process.env,
        HOME: mkdtempSync(join(tmpdir(), "cc-home-")),
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: "sk-ant-dummy",
        DISABLE_TELEMETRY: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      },
    });
  } finally {
    await server.close();
  }
  return listing;
}

/** The listing line of the skill in `dir`: its description as Claude Code lists it. */
export function listedIn(listing: string, dir: string): string | undefined {
  return new RegExp(`- ${dir}(?: \\([^)]*\\))?: ([^\\\\]*)`).exec(listing)?.[1];
}
