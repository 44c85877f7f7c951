import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { InputError } from "../../model/diagnostics.js";
import { EXIT, exitCodeFor } from "../../report/exit-codes.js";
import { renderJUnit } from "../../report/junit.js";
import { loadReports } from "../../report/load.js";
import { renderMarkdown } from "../../report/markdown.js";
import { mergeReports } from "../../report/merge.js";
import { renderSarif } from "../../report/sarif.js";

const USAGE = `usage: skillgate merge REPORT|DIR... [--json FILE] [--junit FILE] [--sarif FILE] [--markdown FILE]
Combines shard reports into one. Without --json the merged report is printed on stdout.`;

/** Markdown file size cap: the job summary's 1 MiB, in characters (conservative). */
const MARKDOWN_MAX_CHARS = 512 * 1024;

export async function mergeCommand(
  argv: string[],
  io: { stdout: (s: string) => void; stderr: (s: string) => void },
): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    io.stderr(`skillgate merge: ${(e as Error).message}\n${USAGE}\n`);
    return EXIT.usage;
  }
  if (parsed.values.help) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  if (parsed.positionals.length === 0) {
    io.stderr(`skillgate merge: no report given\n${USAGE}\n`);
    return EXIT.usage;
  }
  try {
    const merged = mergeReports(await loadReports(parsed.positionals));
    const json = `${JSON.stringify(merged, null, 2)}\n`;
    const { values } = parsed;
    if (values.json) await writeFile(values.json, json);
    else io.stdout(json);
    if (values.junit) await writeFile(values.junit, renderJUnit(merged));
    if (values.sarif) await writeFile(values.sarif, renderSarif(merged));
    if (values.markdown)
      await writeFile(
        values.markdown,
        renderMarkdown(merged, {
          maxChars: MARKDOWN_MAX_CHARS,
          fullReportHint: values.json ?? "the JSON report",
          charts: true,
        }),
      );
    for (const e of merged.errors) io.stderr(`skillgate merge: ${e}\n`);
    io.stderr(
      `skillgate merge: ${merged.verdict} (${merged.skills.length} skills, ${merged.newRoots.length} new roots)\n`,
    );
    return exitCodeFor(merged.verdict);
  } catch (e) {
    if (e instanceof InputError) {
      io.stderr(`${e.message}\n`);
      return EXIT.usage;
    }
    io.stderr(`skillgate merge: ${(e as Error).stack ?? e}\n`);
    return EXIT.error;
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: "string" },
      junit: { type: "string" },
      sarif: { type: "string" },
      markdown: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}
