import { writeFile } from "node:fs/promises";
import { EXIT, exitCodeFor } from "../../report/exit-codes.js";
import { renderHtml } from "../../report/html/index.js";
import { renderJUnit } from "../../report/junit.js";
import { loadReports } from "../../report/load.js";
import { renderMarkdown } from "../../report/markdown.js";
import { mergeReports } from "../../report/merge.js";
import { renderSarif } from "../../report/sarif.js";
import { outputRedactor, redactOutput } from "../../util/redact.js";
import type { CliIO } from "../io.js";
import { parseCommandLine, UsageError } from "../usage.js";

export const MERGE_USAGE = `Usage: skillgate merge REPORT|DIR... [options]

Combines shard reports into one (a missing or failed shard makes the verdict error).
Without --json the merged report is printed on stdout.

  --json FILE       write the merged JSON report
  --junit FILE      write JUnit XML
  --sarif FILE      write SARIF 2.1.0
  --markdown FILE   write the Markdown summary
  --html FILE       write the review report: one self-contained HTML page of every shard's skills

Exit codes: 0 pass, 1 fail, 2 usage error, 3 error.`;

/** Markdown file size cap: the job summary's 1 MiB, in characters (conservative). */
const MARKDOWN_MAX_CHARS = 512 * 1024;

export async function mergeCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, {
    allowPositionals: true,
    options: {
      json: { type: "string" },
      junit: { type: "string" },
      sarif: { type: "string" },
      markdown: { type: "string" },
      html: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.stdout(`${MERGE_USAGE}\n`);
    return EXIT.pass;
  }
  if (positionals.length === 0) throw new UsageError("no report given");
  const merged = mergeReports(await loadReports(positionals));
  const json = `${JSON.stringify(merged, null, 2)}\n`;
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
  if (values.html)
    await writeFile(
      values.html,
      redactOutput(renderHtml(outputRedactor().redactDeep(merged), { redact: redactOutput })),
    );
  for (const e of merged.errors) io.stderr(`skillgate merge: ${e}\n`);
  io.stderr(
    `skillgate merge: ${merged.verdict} (${merged.skills.length} skills, ${merged.newRoots.length} new roots)\n`,
  );
  return exitCodeFor(merged.verdict);
}
