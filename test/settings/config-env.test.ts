import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/model/index.js";
import { loadConfig } from "../../src/settings/config.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const repoWith = (yml: string) => {
  const d = mkdtempSync(join(tmpdir(), "sg-cfg-env-"));
  dirs.push(d);
  writeFileSync(join(d, ".skillgate.yml"), yml);
  return d;
};

describe("config env: exact names only", () => {
  it("accepts exact variable names", () => {
    expect(loadConfig(repoWith("env: [MY_VAR, DATABASE_URL]\n")).config.env).toEqual([
      "MY_VAR",
      "DATABASE_URL",
    ]);
  });

  for (const bad of ['"*"', "AWS_*", '"A B"'])
    it(`refuses ${bad} with a located error`, () => {
      let err: unknown;
      try {
        loadConfig(repoWith(`agent:\n  adapter: replay\nenv: [MY_VAR, ${bad}]\n`));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputError);
      const d = (err as InputError).diagnostics;
      expect(d.map((x) => [x.file, x.line])).toEqual([[".skillgate.yml", 3]]);
      expect(d[0]!.message).toMatch(
        /^`env\.1` must be an exact variable name \(letters, digits and _; no `\*` patterns\)/,
      );
    });
});
