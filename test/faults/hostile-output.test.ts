import { describe, expect, it } from "vitest";
import { renderJUnit } from "../../src/report/junit.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import { renderSarif } from "../../src/report/sarif.js";
import { runFault } from "./fault-repo.js";

/**
 * An agent answering with markup meant to break the reports (closing `</details>`, `<script>`, @-mentions, HTML
 * comments, code fences, table pipes, links, CDATA ends): the answer reaches the report's messages through a
 * failing assertion, and every rendering that interprets markup shows it inert.
 */
describe("hostile agent output", () => {
  it("is escaped in the Markdown summary, JUnit XML and SARIF", async () => {
    const { report } = await runFault("hostile");
    const raw = JSON.stringify(report);
    // precondition: the hostile text did reach the report (else this test could not fail)
    expect(raw).toContain("</details><script>alert(1)</script>");
    expect(raw).toContain("@octocat");

    const md = renderMarkdown(report, {
      maxChars: 65_536,
      fullReportHint: "the report artifact",
      charts: true,
    });
    for (const bad of [
      "</details><script>",
      "<script",
      "@octocat",
      "<!--",
      "```js",
      "| a | b |",
      "](javascript:",
      "![img]",
    ])
      expect(md, `markdown shows ${bad} raw`).not.toContain(bad);
    // shown, as a literal, with a word joiner after it: GitHub mentions after decoding entities (#39)
    expect(md).toContain("&#64;\u2060octocat");

    const xml = renderJUnit(report);
    for (const bad of ["<script", "]]></failure>", '<x a="1"/>', "<?xml?>", "</details>"])
      expect(xml, `JUnit shows ${bad} raw`).not.toContain(bad);
    expect(xml).toContain("&lt;script&gt;");
    // well-formed enough: every element opened is closed (no injected tags)
    const opened = (xml.match(/<(testsuite|testcase|failure|error)\b/g) ?? []).length;
    const closed = (
      xml.match(/<\/(testsuite|testcase|failure|error)>|<(testsuite|testcase|failure|error)\b[^>]*\/>/g) ?? []
    ).length;
    expect(closed).toBe(opened);

    const sarif = JSON.parse(renderSarif(report)) as {
      runs: { results: { message: { text: string; markdown?: string } }[] }[];
    };
    const results = sarif.runs.flatMap((r) => r.results);
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) {
      // SARIF text is plain text (never rendered as markup); any markdown variant must be escaped
      expect(r.message.markdown ?? "").not.toContain("<script");
      expect(r.message.text.length).toBeLessThan(4000);
    }
  }, 60_000);
});
