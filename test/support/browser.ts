/**
 * Headless Chromium for looking at the review report as a person does (playwright-core driving Debian's Chromium;
 * no browser download). The page is opened from disk; every console error, page error and request is recorded.
 */
import { pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { findChromium } from "../../gates/contrast/chromium.js";

export { findChromium };

export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath)
    throw new Error("no Chromium found (apt-get install chromium, or set SKILLGATE_CHROMIUM)");
  return chromium.launch({ executablePath, args: ["--disable-gpu", "--disable-dev-shm-usage"] });
}

export interface OpenedPage {
  page: Page;
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** Every URL the page asked for, the page itself first. */
  requests: string[];
  /** Navigation start to the end of the load event, as the page's own timing says. */
  loadMs: number;
}

export async function openPage(
  browser: Browser,
  file: string,
  viewport = { width: 1280, height: 800 },
): Promise<OpenedPage> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  const loadMs = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    return nav.loadEventEnd - nav.startTime;
  });
  return { page, errors, requests, loadMs };
}
