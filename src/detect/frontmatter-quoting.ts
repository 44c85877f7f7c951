/**
 * Claude Code's second reading of a SKILL.md frontmatter that is not valid YAML: each top-level `key: value` line
 * whose value YAML would misread (a `: ` inside it, a leading `|`, `>`, `@`, `` ` ``, `*`, `&`, `!`, `%`, `{`, `[`,
 * a `#`) is quoted, and the result parsed again. So `description: Reads PDFs: forms, tables` is a skill Claude Code
 * loads (its description that whole line), though YAML, skills-ref and other clients reject the file. Seen with
 * Claude Code 2.1.332 (test/detect/claude-code-frontmatter.test.ts runs it); the rule is its published one
 * (`quoteProblematicValues`): same lines, so positions found in the rewrite are the file's.
 */
const TOP_LEVEL_PAIR = /^([a-zA-Z_-]+):\s+(.+)$/;
const YAML_SPECIAL = /[{}[\]*&#!|>%@`]|: /;

export interface QuotedFrontmatter {
  text: string;
  /** The keys whose values were quoted. */
  quotedKeys: string[];
}

/** The frontmatter with its problematic top-level values double-quoted; undefined when no line needed it. */
export function quoteProblematicValues(fmText: string): QuotedFrontmatter | undefined {
  const quotedKeys: string[] = [];
  const lines = fmText.split("\n").map((line) => {
    const m = TOP_LEVEL_PAIR.exec(line);
    if (!m) return line;
    const [, key, value] = m as unknown as [string, string, string];
    const quoted =
      (value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"));
    if (quoted || !YAML_SPECIAL.test(value)) return line;
    quotedKeys.push(key);
    return `${key}: "${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  });
  return quotedKeys.length > 0 ? { text: lines.join("\n"), quotedKeys } : undefined;
}
