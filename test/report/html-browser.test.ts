/**
 * The review report as a person sees it: the demo PR's page (`skillgate run --html`) opened from disk in headless
 * Chromium. No console error, no request but the file itself, the failing root above the fold, its transcripts
 * opening side by side, filters and search that work, every control reachable by keyboard, and colours that pass
 * skillgate's own contrast gate. A screenshot is kept under test-artifacts/ (git-ignored). The demo's report is the
 * bundled CLI's, made once and shared with test/report/html-narrow.test.ts (test/support/demo-report.ts).
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGate } from "../../gates/registry.js";
import type { Report } from "../../src/model/report.js";
import { renderHtml } from "../../src/report/html/index.js";
import { findChromium, launchBrowser, type OpenedPage, openPage } from "../support/browser.js";
import { demoReport } from "../support/demo-report.js";
import { bundledDist } from "../support/dist.js";

const ROOT = join(import.meta.dirname, "../..");
const ARTIFACTS = join(ROOT, "test-artifacts");
// Chromium is needed here; on CI (which installs it, .ci/run) these must run, never skip.
const browserHere = findChromium() !== undefined || process.env.CI === "true";

/** The shared demo report's folder (read only) and this file's own scratch folder. */
let shared: string;
let dir: string;
let report: Report;
let browser: Browser;
let demo: OpenedPage;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "sg-html-"));
  const r = await demoReport();
  expect(r.exitCode).toBe(1);
  shared = r.dir;
  report = JSON.parse(readFileSync(join(shared, "report.json"), "utf8"));
  if (!browserHere) return;
  browser = await launchBrowser();
  demo = await openPage(browser, join(shared, "report.html"));
}, 600_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Elements with text of their own on the page, as the contrast gate counts them. */
async function countTexts(file: string): Promise<number> {
  const { page } = await openPage(browser, file);
  const n = await page.evaluate(
    () =>
      [...document.querySelectorAll("body *")].filter((e) =>
        [...e.childNodes].some((c) => c.nodeType === 3 && c.textContent!.trim() !== ""),
      ).length,
  );
  await page.close();
  return n;
}

const visibleRoots = (page: Page) => page.locator("article.root:visible");

describe("skillgate run --html / --markdown on the demo PR", () => {
  it("writes the page and the check run's summary", () => {
    const html = readFileSync(join(shared, "report.html"), "utf8");
    expect(html).toMatch(/^<!doctype html>/);
    for (const root of report.newRoots) expect(html).toContain(`id ${root.id.replace(/&/g, "&amp;")}`);
    const md = readFileSync(join(shared, "summary.md"), "utf8");
    expect(md).toMatch(/^## ❌ skillgate: fail: 11 blocking roots \(11 new\) in 1 skill/);
    expect(md).toMatch(/#### Robustness of split-cents: partial, \d of 8/);
  });

  it("merge --html writes the page of the merged shards", async () => {
    const out = join(dir, "merged.html");
    const cli = join(await bundledDist(), "cli.js");
    const r = await execa(
      process.execPath,
      [cli, "merge", join(shared, "report.json"), "--json", join(dir, "merged.json"), "--html", out],
      { reject: false },
    );
    expect(r.exitCode).toBe(1);
    const html = readFileSync(out, "utf8");
    expect(html).toContain("Head: fails this check");
    expect(html.match(/<article class="root fi blocking"/g)).toHaveLength(11);
  });
});

describe.runIf(browserHere)("the review report in headless Chromium", () => {
  it("loads from disk with no console error and no request but the file itself", () => {
    expect(demo.errors).toEqual([]);
    expect(demo.requests).toEqual([expect.stringMatching(/^file:\/\/.*report\.html$/)]);
  });

  it("shows a failing new root of the demo above the fold", async () => {
    const first = demo.page.locator("article.root.blocking").first();
    const box = (await first.boundingBox())!;
    expect(box.y).toBeLessThan(800 - 80);
    const text = (await first.textContent()) ?? "";
    expect(report.newRoots.some((r) => text.includes(r.id))).toBe(true);
    expect(text).toMatch(
      /head \d+\/\d+ failed vs base \d+\/\d+ failed, one-sided Fisher p = \S+ ≤ threshold/,
    );
  });

  it("opens a root's transcripts side by side: failing head beside passing base and the baseline", async () => {
    const root = demo.page.locator("article.root.blocking", { hasText: "split-refund/D:sums-to-total" });
    await root.locator("details.tx > summary").click();
    const sides = root.locator(".pair .side");
    await expect.poll(() => sides.count()).toBe(3);
    const [head, base, baseline] = await sides.allTextContents();
    expect(head).toMatch(/^Head: fails this check[\s\S]*Prompt[\s\S]*A 10\.00 EUR refund[\s\S]*Final output/);
    expect(head).toMatch(/Skills activated: split-cents/);
    expect(base).toMatch(/^Base: passes this check/);
    expect(baseline).toMatch(/^Baseline, without the skill[\s\S]*Skills activated: none/);
    mkdirSync(ARTIFACTS, { recursive: true });
    await root.scrollIntoViewIfNeeded();
    await demo.page.screenshot({ path: join(ARTIFACTS, "review-report-root.png") });
    await demo.page.evaluate(() => window.scrollTo(0, 0));
    await demo.page.screenshot({ path: join(ARTIFACTS, "review-report.png") });
  });

  it("shows the gate's counterexample and replay line in the failing trial", async () => {
    const root = demo.page.locator("article.root.blocking", { hasText: "split-1000-3/split-conserves" });
    await root.locator("details.tx > summary").click();
    const head = root.locator(".pair .side").first();
    await expect.poll(() => head.textContent()).toMatch(/shares sum to \d+, not \d+/);
    expect(await head.textContent()).toContain(
      `skillgate gate conservation src/split.ts --export splitCents --options '{"mode":"count"}' --seed 42`,
    );
    expect(await head.textContent()).toMatch(
      /Files written \(1\)\s*src\/split\.ts\s*export function splitCents/,
    );
  });

  it("filters by battery, status and skill, and searches inside unopened transcripts", async () => {
    const { page } = demo;
    const all = await visibleRoots(page).count();
    const triggerRoots = report.skills.flatMap((s) => s.roots).filter((r) => r.kind === "trigger").length;
    await page.selectOption("#f-battery", "trigger");
    await expect.poll(() => visibleRoots(page).count()).toBe(triggerRoots);
    await page.selectOption("#f-battery", "");
    await page.selectOption("#f-status", "new");
    await expect.poll(() => visibleRoots(page).count()).toBe(report.newRoots.length);
    await page.selectOption("#f-status", "");
    await page.selectOption("#f-skill", "split-cents");
    await expect.poll(() => visibleRoots(page).count()).toBe(all - report.policy.roots.length);
    await page.selectOption("#f-skill", "");
    // a sentence only the agent's output holds, in trials nobody has opened
    const trials = await page.locator("details.trial").count();
    await page.fill("#f-search", "each card holder gets an equal share");
    await expect.poll(() => page.locator("details.trial:visible").count()).toBeLessThan(trials);
    expect(await page.locator("details.trial:visible").count()).toBeGreaterThan(0);
    // the first match, opened, holds the sentence
    const match = page.locator("details.trial:visible").first();
    await match.locator("summary").click();
    expect((await match.textContent())?.toLowerCase()).toContain("each card holder gets an equal share");
    await page.click("#f-reset");
    await expect.poll(() => visibleRoots(page).count()).toBe(all);
  });

  it("reaches every control by keyboard, and opens a transcript with Enter", async () => {
    const page = (await openPage(browser, join(shared, "report.html"))).page;
    const controls = await page.evaluate(() => {
      const els = [
        ...document.querySelectorAll<HTMLElement>("a[href], summary, select, input, button"),
      ].filter((e) => e.checkVisibility());
      for (const [i, e] of els.entries()) e.setAttribute("data-k", String(i));
      return els.length;
    });
    const reached = new Set<string>();
    for (let i = 0; i < controls + 3; i++) {
      await page.keyboard.press("Tab");
      const k = await page.evaluate(() => document.activeElement?.getAttribute("data-k") ?? "");
      if (k) reached.add(k);
    }
    expect(reached.size).toBe(controls);
    // the long list of trials opens with Enter, and so does a trial in it
    await page.locator("details.trial-list > summary").first().focus();
    await page.keyboard.press("Enter");
    const summary = page.locator("details.trial > summary").first();
    await expect.poll(() => summary.isVisible()).toBe(true);
    await summary.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("details.trial").first().locator(".transcript").count()).toBe(1);
    await page.close();
  }, 180_000);

  it("passes skillgate's own contrast gate (WCAG AA) with its transcripts open", async () => {
    // A page small enough for the gate's element budget: the demo's report cut to two roots and their trials.
    const skill = report.skills[0]!;
    const roots = [
      skill.roots.find((r) => r.kind === "assertion" && r.status === "new")!,
      skill.roots.find((r) => r.kind === "trigger")!,
    ];
    const ids = new Set(roots.map((r) => r.id));
    // per root a head, a base and a baseline trial: every part of a transcript, side by side
    const kept = new Set(
      roots.flatMap((r) =>
        (["head/skill", "base/skill", "head/baseline", "head/trigger", "base/trigger"] as const).flatMap(
          (kind) => {
            const t = skill.transcripts!.find(
              (x) => `${x.arm}/${x.mode}` === kind && x.checks.some((c) => c.checkId === r.id),
            );
            return t ? [t.id] : [];
          },
        ),
      ),
    );
    const small: Report = {
      ...report,
      blockingRoots: roots.filter((r) => r.blocking),
      skills: [
        {
          ...skill,
          roots,
          transcripts: skill.transcripts!.filter((t) => kept.has(t.id)),
          evidence: {
            ...skill.evidence!,
            head: skill.evidence!.head.filter((c) => ids.has(c.checkId)),
            base: skill.evidence!.base?.filter((c) => ids.has(c.checkId)),
          },
          trigger: { ...skill.trigger!, queries: skill.trigger!.queries.slice(0, 3) },
          gates: skill.gates.slice(0, 2),
        },
      ],
    };
    const file = join(dir, "small.html");
    writeFileSync(file, renderHtml(small, { blobBase: "https://github.com/o/r/blob/0123abc" }));
    const { page, errors } = await openPage(browser, file);
    // every transcript open, as a reader would have it
    await page.evaluate(() => {
      for (const d of document.querySelectorAll("details")) d.open = true;
    });
    await expect.poll(() => page.locator(".slot:not([data-filled])").count()).toBe(0);
    // The gate's sandbox uid reads the page: a folder others may enter.
    const folder = mkdtempSync(join(tmpdir(), "sg-html-contrast-"));
    chmodSync(folder, 0o755);
    const opened = join(folder, "page.html");
    writeFileSync(
      opened,
      `<!doctype html>\n${await page.evaluate(() => document.documentElement.outerHTML)}`,
    );
    await page.close();
    expect(errors).toEqual([]);
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, "review-report-contrast.html"), readFileSync(opened));
    const texts = await countTexts(opened);
    const result = await runGate("contrast", opened, { seed: 1, timeoutMs: 170_000 });
    rmSync(folder, { recursive: true, force: true });
    expect(result.checks.filter((c) => !c.passed)).toEqual([]);
    expect(result.passed).toBe(true);
    // the gate judged the page's text, the transcripts' included (not a vacuous pass)
    expect(result.checks.length).toBeGreaterThan(texts * 0.9);
    const judged = result.checks.map((c) => c.id).join("\n");
    for (const part of [
      "span.badge.b-fail",
      "span.badge.b-pass",
      "div.transcript > pre",
      "td.hit",
      "a.loc",
      "form#filters",
    ])
      expect(judged).toContain(part);
  }, 240_000);
});
