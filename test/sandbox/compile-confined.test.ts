/**
 * The compile step of untrusted modules runs esbuild in a sandboxed child whose imports stay inside the module's
 * folder: no absolute paths, no `..` out of it, no links out, no text/binary files, no import attributes. Each
 * refusal names the importing file and line; no secret of skillgate's environment reaches any message.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileModule } from "../../src/sandbox/compile.js";

const SECRET = "sk-compile-7d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a";

/** A module folder (readable by the sandbox uid) beside a "checkout" holding a secret. */
function layout(files: Record<string, string>): { root: string; main: string } {
  const outer = mkdtempSync(join(tmpdir(), "sg-compile-confined-"));
  chmodSync(outer, 0o755);
  mkdirSync(join(outer, ".git"));
  writeFileSync(join(outer, ".git", "config"), `[remote]\n  token = ${SECRET}\n`);
  writeFileSync(join(outer, "secret.js"), `export default ${JSON.stringify(SECRET)};\n`);
  const root = join(outer, "ws");
  mkdirSync(root);
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(root, rel), text);
  return { root, main: join(root, "main.ts") };
}

async function refused(files: Record<string, string>, why: RegExp): Promise<string> {
  const { main } = layout(files);
  const out = await compileModule(main);
  expect(out.ok).toBe(false);
  const message = out.ok ? "" : out.message;
  expect(message).toMatch(why);
  expect(message).toMatch(/main\.ts:\d+:\d+: /);
  expect(message).not.toContain(SECRET);
  return message;
}

describe("compile confinement", () => {
  beforeAll(() => {
    process.env.SKILLGATE_COMPILE_TEST_TOKEN = SECRET;
  });
  afterAll(() => {
    delete process.env.SKILLGATE_COMPILE_TEST_TOKEN;
  });

  it("bundles relative imports, JSON and Node's built-ins inside the folder", async () => {
    const { main } = layout({
      "main.ts":
        'import { k } from "./helper";\nimport data from "./data.json";\nimport { sep } from "node:path";\nexport const f = (x: number) => x * k + data.n + sep.length;\n',
      "helper.ts": "export const k = 2;\n",
      "data.json": '{"n": 40}\n',
    });
    const out = await compileModule(main);
    expect(out.ok).toBe(true);
    if (out.ok) expect(readFileSync(out.file, "utf8")).toContain("40");
  });

  it("refuses import attributes (/proc/self/environ as text)", async () => {
    await refused(
      { "main.ts": 'import env from "/proc/self/environ" with { type: "text" };\nexport default env;\n' },
      /import attributes are not allowed/,
    );
  });

  it("refuses absolute paths (/dev/zero would grow without end)", async () => {
    await refused({ "main.ts": 'import z from "/dev/zero";\nexport default z;\n' }, /absolute paths/);
  });

  it("refuses `..` out of the folder (the checkout's secret, .git/config)", async () => {
    // Inside bubblewrap the file is not even there (only the folder is bound); without it the resolver refuses it.
    await refused(
      { "main.ts": 'import s from "../secret.js";\nexport default s;\n' },
      /outside the module's folder|Could not resolve/,
    );
    await refused(
      { "main.ts": 'import c from "../.git/config";\nexport default c;\n' },
      /outside the module's folder|does not resolve|Could not resolve/,
    );
  });

  it("refuses a link inside the folder that points out of it", async () => {
    const { root, main } = layout({ "main.ts": 'import s from "./inside.js";\nexport default s;\n' });
    symlinkSync(join(root, "..", "secret.js"), join(root, "inside.js"));
    const out = await compileModule(main);
    expect(out).toMatchObject({
      ok: false,
      message: expect.stringMatching(/main\.ts:1:\d+: .*(outside the module's folder|Could not resolve)/),
    });
    expect(JSON.stringify(out)).not.toContain(SECRET);
  });

  it("refuses files that are not code (the text and binary loaders)", async () => {
    await refused(
      { "main.ts": 'import t from "./notes.txt";\nexport default t;\n', "notes.txt": SECRET },
      /only JavaScript, TypeScript and JSON/,
    );
  });
});
