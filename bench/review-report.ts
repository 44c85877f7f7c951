import { statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { renderHtml } from "../src/report/html/index.js";
import { launchBrowser, openPage } from "../test/support/browser.js";
import { largeReport } from "../test/support/large-report.js";
import { keepSampling } from "./budget.js";
import type { BenchContext } from "./types.js";

/**
 * `reviewReport`: the HTML review report of a run of `--report-trials` trials (default 10,000; 10 skills, head and
 * base, with and without the skill), rendered (`renderMs`, `bytes`) and opened from disk in headless Chromium
 * (`loadMs`: navigation start to the end of the load event, median of the opens; goal about 2 s), then as a reader
 * uses it: the first root's transcripts opened (`openTranscriptsMs`, which opens one chunk of the store) and a
 * status filter over every item (`filterMs`, which opens the whole store and builds the long lists).
 */
export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const trials = Number(ctx.flags.reportTrials ?? 10_000);
  const report = largeReport({ trials });
  const kept = report.skills.reduce((n, s) => n + (s.transcripts?.length ?? 0), 0);
  const detailed = report.skills.reduce(
    (n, s) => n + (s.transcripts?.filter((t) => t.detail).length ?? 0),
    0,
  );
  const t0 = performance.now();
  const html = renderHtml(report);
  const renderMs = Math.round(performance.now() - t0);
  const file = join(ctx.tmp, "review-report.html");
  writeFileSync(file, html);
  const bytes = statSync(file).size;
  ctx.log(
    `reviewReport.trials ${kept} (${detailed} in detail), ${(bytes / 1024 / 1024).toFixed(1)} MB, rendered in ${renderMs} ms`,
  );

  const browser = await launchBrowser();
  try {
    const loads: number[] = [];
    let openTranscriptsMs = 0;
    let filterMs = 0;
    const started = Date.now();
    for (let i = 0; keepSampling(ctx, i, 3, 7, started); i++) {
      const { page, loadMs, errors } = await openPage(browser, file);
      if (errors.length) throw new Error(`the page logged errors: ${errors.join("; ")}`);
      loads.push(Math.round(loadMs));
      if (i === 0) {
        openTranscriptsMs = await page.evaluate(async () => {
          const d = document.querySelector<HTMLDetailsElement>("article.root details.tx")!;
          const t = performance.now();
          d.open = true;
          while (d.querySelector(".slot:not([data-filled])")) await new Promise((r) => setTimeout(r, 1));
          return performance.now() - t;
        });
        // a status filter over every item, until the page says how many it shows (the long lists built first)
        filterMs = await page.evaluate(async () => {
          const s = document.querySelector<HTMLSelectElement>("#f-status")!;
          const count = document.querySelector("#f-count")!;
          const before = count.textContent;
          s.value = "failing";
          const t = performance.now();
          s.dispatchEvent(new Event("change", { bubbles: true }));
          while (count.textContent === before) await new Promise((r) => setTimeout(r, 1));
          return performance.now() - t;
        });
      }
      await page.close();
    }
    // What the machine's load does to any page: a blank one opened the same way, as often.
    const blankFile = join(ctx.tmp, "blank.html");
    writeFileSync(blankFile, "<!doctype html><title>blank</title><p>blank</p>");
    const blanks: number[] = [];
    for (let i = 0; i < loads.length; i++) {
      const blank = await openPage(browser, blankFile);
      blanks.push(Math.round(blank.loadMs));
      await blank.page.close();
    }
    const blankLoadMs = [...blanks].sort((a, b) => a - b)[Math.floor(blanks.length / 2)]!;
    const sorted = [...loads].sort((a, b) => a - b);
    const loadMs = sorted[Math.floor(sorted.length / 2)]!;
    ctx.log(
      `reviewReport.loadMs ${loadMs} ms (median of ${loads.length} opens: ${loads.join(", ")}; goal about 2,000); a blank page ${blankLoadMs} ms; load average ${loadavg()[0]!.toFixed(1)}`,
    );
    ctx.log(
      `reviewReport.openTranscriptsMs ${Math.round(openTranscriptsMs)} ms (first root: one chunk of the store opened), filterMs ${Math.round(filterMs)} ms`,
    );
    return {
      reviewReport: {
        trials: kept,
        detailedTrials: detailed,
        bytes,
        renderMs,
        loadMs,
        loads,
        blankLoadMs,
        loadAverage: Math.round(loadavg()[0]! * 10) / 10,
        openTranscriptsMs: Math.round(openTranscriptsMs),
        filterMs: Math.round(filterMs),
      },
    };
  } finally {
    await browser.close();
  }
}
