/**
 * Issue #43, the review page of the demo PR as the bundled CLI writes it, in headless Chromium at 1280 and 390 px
 * (screenshots under test-artifacts/, git-ignored):
 * - no horizontal overflow and nothing cut (the checks and robustness tables were 548 px wide at 390, the base
 *   column cut), every <details> opened;
 * - a root's head transcript is shown once (it was shown again beside the baseline);
 * - a baseline trial is never marked failing for not activating a skill it did not have (`skill-used` was graded
 *   on baseline trials: a red "fail" under "passes this check"), and a trial's badge says it is the trial's;
 * - the trigger confusion table does not colour a should-not-fire prompt routed to another skill red;
 * - the PR's diff of SKILL.md and suite files is on the page, its changed lines linked to the roots they explain.
 * The demo's report is made once and shared with test/report/html-browser.test.ts (test/support/demo-report.ts).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/model/report.js";
import { renderHtml } from "../../src/report/html/index.js";
import { findChromium, launchBrowser, openPage } from "../support/browser.js";
import { demoReport } from "../support/demo-report.js";

const ROOT = join(import.meta.dirname, "../..");
const ARTIFACTS = join(ROOT, "test-artifacts");
const browserHere = findChromium() !== undefined || process.env.CI === "true";

let dir: string;
let report: Report;
let browser: Browser | undefined;

beforeAll(async () => {
  const r = await demoReport();
  expect(r.exitCode).toBe(1);
  dir = r.dir; // shared: only read here
  report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
  if (browserHere) browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
});

describe.runIf(browserHere)("the review page at 1280 and 390 px", () => {
  it.each([1280, 390])(
    "at %i px: no horizontal overflow, nothing cut, every part opened",
    async (width) => {
      const { page, errors } = await openPage(browser!, join(dir, "report.html"), { width, height: 900 });
      await page.evaluate(() => {
        for (const d of document.querySelectorAll("details")) d.open = true;
      });
      await page.waitForTimeout(300);
      const found = await page.evaluate(() => {
        const doc = document.documentElement;
        const cut = [...document.querySelectorAll("main table, main td, main th, main pre, main .side")]
          .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "auto")
          .map((e) => `${e.tagName.toLowerCase()} ${e.scrollWidth}>${e.clientWidth}`);
        const outside = [...document.querySelectorAll("main *")]
          .filter((e) => e.getBoundingClientRect().right > doc.clientWidth + 1)
          .map((e) => e.tagName.toLowerCase());
        return { scroll: doc.scrollWidth, client: doc.clientWidth, cut, outside: [...new Set(outside)] };
      });
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, `review-report-${width}.png`) });
      await page
        .locator("section#robustness")
        .screenshot({ path: join(ARTIFACTS, `review-robustness-${width}.png`) });
      await page.close();
      expect(errors).toEqual([]);
      expect(found.scroll).toBe(found.client);
      expect(found.cut).toEqual([]);
      expect(found.outside).toEqual([]);
    },
    120_000,
  );

  it("shows a root's head trial once, the baseline beside it", async () => {
    const { page } = await openPage(browser!, join(dir, "report.html"));
    const repeated = await page.evaluate(() =>
      [...document.querySelectorAll("article.root")].flatMap((a) => {
        const slots = [...a.querySelectorAll(".slot[data-slot]")].map((s) => (s as HTMLElement).dataset.slot);
        return slots.length === new Set(slots).size ? [] : [a.id];
      }),
    );
    await page
      .locator("article.root details.tx")
      .first()
      .evaluate((d) => {
        (d as HTMLDetailsElement).open = true;
      });
    // The body is filled from the page's compressed store when the details open (asynchronously: a fixed 200 ms
    // wait lost the race on a loaded runner), so wait for it.
    const badge = page.locator("article.root .transcript .thead .badge");
    await badge.first().waitFor({ timeout: 15_000 });
    // The badge of a transcript is the trial's, and says so: not a bare "fail" under "passes this check".
    const badges = await badge.allTextContents();
    await page.close();
    expect(repeated).toEqual([]);
    expect(badges.length).toBeGreaterThan(0);
    for (const b of badges) expect(b).toMatch(/^trial( passed|: \d+ of \d+ check\(s\) failed|: error)/);
  });
});

describe.runIf(browserHere)("the PR's diff on the page", () => {
  it("shows the changed lines of SKILL.md, each linked to the roots it explains, and back", async () => {
    const change = report.changes?.find((c) => c.file === ".claude/skills/split-cents/SKILL.md");
    expect(change?.status).toBe("modified");
    const { page } = await openPage(browser!, join(dir, "report.html"));
    const section = page.locator("section#changes");
    // The description's line (3) is the changed line the trigger roots point at.
    const line = section.locator(".dl.add", { hasText: "+description:" });
    const links = await line.locator("a.explains").allTextContents();
    expect(links.length).toBeGreaterThan(0);
    expect(links.every((l) => /^root trigger\/fire\/\d+$/.test(l))).toBe(true);
    const target = await line.locator("a.explains").first().getAttribute("href");
    expect(await page.locator(`article.root${target}`).count()).toBe(1);
    const back = page.locator(`article.root${target} .where a[href^="#diff-"]`);
    expect(await back.textContent()).toBe("changed in this PR");
    expect(await page.locator(`${await back.getAttribute("href")}`).count()).toBe(1);
    mkdirSync(ARTIFACTS, { recursive: true });
    await section.screenshot({ path: join(ARTIFACTS, "review-changes-1280.png") });
    await page.setViewportSize({ width: 390, height: 900 });
    await section.screenshot({ path: join(ARTIFACTS, "review-changes-390.png") });
    await page.close();
  });
});

describe("baseline trials and the trial badge", () => {
  it("a baseline trial's activation checks are not graded (skipped), so they never fail it", () => {
    const baseline = report.skills
      .flatMap((s) => s.transcripts ?? [])
      .filter((t) => t.mode === "baseline")
      .flatMap((t) => t.checks.filter((c) => /activated|skill-used/.test(c.checkId)));
    expect(baseline.length).toBeGreaterThan(0);
    expect(baseline.filter((c) => c.status !== "skipped")).toEqual([]);
  });
});

describe("the trigger confusion table", () => {
  it("colours a should-not-fire prompt routed to another skill as right, to the skill under test as wrong", () => {
    const html = renderHtml({
      ...report,
      triggerConfusion: {
        labels: ["alpha", "beta", "(none)"],
        counts: { alpha: { alpha: 3 }, "(none)": { beta: 2, alpha: 1, "(none)": 4 } },
        notFor: { "(none)": ["alpha"] },
      },
    });
    const row = /<tr><th scope="row">\(none\)<\/th>(.*?)<\/tr>/.exec(html)?.[1] ?? "";
    expect(row).toBe('<td class="miss">1</td><td class="hit">2</td><td class="hit">4</td>');
  });
});
