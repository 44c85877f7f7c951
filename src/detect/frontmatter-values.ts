/**
 * Frontmatter values outside the spec's types in a skill Claude Code loads all the same (issue #43: a file its own
 * tool accepts is never an error). Seen with Claude Code 2.1.332 (test/detect/frontmatter-values.test.ts runs it):
 * a key written twice is read with its last value; an empty, list or blank `description` is replaced by the body's
 * first paragraph; `license`, `compatibility`, `metadata` and `allowed-tools` of another type (or left empty) do not
 * stop the skill loading; a `name` YAML reads as a number or a boolean is listed under the folder's name. Under the `claude-code` profile each is a located warning and is read as Claude Code
 * reads it; the strict profile keeps the spec's errors. A target that refuses such a value (Codex without a string
 * description, `gh skill publish`) still errs through its own rules (src/detect/targets/frontmatter.ts).
 */
import { isMap, isPair, isScalar, parseDocument, visit } from "yaml";
import type { Diagnostic } from "../model/index.js";
import { parseSourceFile, type SourceFile } from "./source-file.js";

const DUPLICATE_KEY = /^invalid YAML: Map keys must be unique/;

/**
 * The frontmatter as Claude Code reads a key written twice: the earlier pair blanked (same lines, so positions
 * are the file's), and a warning at each later one. Undefined unless duplicate keys are YAML's only errors and
 * the blanked text parses.
 */
export function lastKeyWins(
  file: string,
  fmText: string,
  yamlErrors: readonly Diagnostic[],
): { second: SourceFile; warnings: Diagnostic[] } | undefined {
  if (yamlErrors.length === 0 || !yamlErrors.every((d) => DUPLICATE_KEY.test(d.message))) return undefined;
  const doc = parseDocument(fmText, { uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length > 0) return undefined;
  // yaml's ranges count UTF-16 units, as string indices do.
  const chars = fmText.split("");
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (chars[i] !== "\n") chars[i] = " ";
  };
  const later: { key: string; offset: number }[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Map<unknown, (typeof map.items)[number]>();
      for (const pair of map.items) {
        if (!isPair(pair) || !isScalar(pair.key) || !pair.key.range) continue;
        const earlier = seen.get(pair.key.value);
        if (earlier && isScalar(earlier.key) && earlier.key.range) {
          const value = earlier.value as { range?: [number, number, number] } | null;
          const end = value?.range ? value.range[1] : fmText.indexOf(":", earlier.key.range[1]) + 1;
          blank(earlier.key.range[0], end);
          later.push({ key: String(pair.key.value), offset: pair.key.range[0] });
        }
        seen.set(pair.key.value, pair);
      }
    },
  });
  const second = parseSourceFile(file, chars.join(""), 1);
  if (later.length === 0 || second.diagnostics.length > 0 || !isMap(parseDocument(chars.join("")).contents))
    return undefined;
  const warnings = later.map(
    ({ key, offset }): Diagnostic => ({
      ...second.at(offset),
      severity: "warning",
      code: "skill/frontmatter-duplicate-key",
      message: `\`${key}\` is written twice: Claude Code reads this later one, and so does skillgate, but YAML, skills-ref and other clients reject the file (strict profile: error); keep one`,
    }),
  );
  return { second, warnings };
}

/** What the spec allows for the optional keys Claude Code loads a skill without. */
const OPTIONAL_TYPES: Record<string, { ok: (v: unknown) => boolean; wants: string }> = {
  license: { ok: (v) => typeof v === "string", wants: "a string" },
  compatibility: { ok: (v) => typeof v === "string", wants: "a string" },
  metadata: {
    ok: (v) => typeof v === "string" || (!!v && typeof v === "object" && !Array.isArray(v)),
    wants: "a mapping of strings",
  },
  "allowed-tools": {
    ok: (v) => typeof v === "string" || Array.isArray(v),
    wants: "one space-separated string",
  },
};

const shown = (v: unknown) =>
  v === null
    ? "has no value"
    : Array.isArray(v)
      ? "is a list"
      : typeof v === "object"
        ? "is a mapping"
        : typeof v === "string"
          ? "is blank"
          : `is a ${typeof v}`;

/**
 * The frontmatter to check under the `claude-code` profile: values Claude Code loads past (see the module's note)
 * left out, each with a warning at its line. `description` is then missing, so the body's first paragraph stands
 * for it, as in Claude Code.
 */
export function claudeCodeValues(
  frontmatter: Record<string, unknown>,
  fm: SourceFile,
): { checked: Record<string, unknown>; warnings: Diagnostic[] } {
  const checked = { ...frontmatter };
  const warnings: Diagnostic[] = [];
  const warn = (path: (string | number)[], message: string) =>
    warnings.push({ ...fm.locate(path), severity: "warning", code: "skill/frontmatter-value", message });
  const d = frontmatter.description;
  if ("description" in frontmatter && (typeof d !== "string" || d.trim() === "")) {
    delete checked.description;
    warn(
      ["description"],
      `\`description\` ${shown(d)}${d === null ? " (a `#` after `description:` starts a YAML comment)" : ""}: Claude Code lists the first paragraph of the body instead, and so does skillgate; the spec requires a description (strict profile: error)`,
    );
  }
  const name = frontmatter.name;
  if ("name" in frontmatter && name !== null && typeof name !== "string" && typeof name !== "object") {
    delete checked.name;
    warn(
      ["name"],
      `\`name\` ${shown(name)} (YAML reads \`${String(name)}\` so): Claude Code lists the skill under its folder's name, and so does skillgate; quote it (strict profile: error)`,
    );
  }
  for (const [key, { ok, wants }] of Object.entries(OPTIONAL_TYPES)) {
    if (!(key in frontmatter) || ok(frontmatter[key])) continue;
    delete checked[key];
    warn(
      [key],
      `\`${key}\` ${shown(frontmatter[key])}, where the spec wants ${wants}: Claude Code loads the skill without it (strict profile: error)`,
    );
  }
  const tools = frontmatter["allowed-tools"];
  if (Array.isArray(tools) && tools.some((t) => typeof t !== "string")) {
    checked["allowed-tools"] = tools.filter((t) => typeof t === "string");
    tools.forEach((t, i) => {
      if (typeof t !== "string")
        warn(
          ["allowed-tools", i],
          `\`allowed-tools\` entry ${i + 1} ${shown(t)} (YAML reads \`: \` inside it as a key), not a tool name: Claude Code loads the skill all the same; quote the entry (strict profile: error)`,
        );
    });
    if ((checked["allowed-tools"] as unknown[]).length === 0) delete checked["allowed-tools"];
  }
  return { checked, warnings };
}
