#!/usr/bin/env node
// A command-protocol agent that misbehaves as told by its first argument (fault-injection tests):
//   hang       never answers          crash     dies by SIGSEGV-like exit 139 with stderr
//   rate-limit exits 1 with "429 Too Many Requests" every time (a 429 storm)
//   garbage    a JSON object of the wrong shape     huge   10 MB of text on stdout
//   early-exit exits 0 before reading the prompt, printing nothing
//   unregistered  claims a skill that is not installed
//   hostile    answers with markup meant to break the reports
import { readFileSync } from "node:fs";

const mode = process.argv[2];
if (mode === "early-exit") process.exit(0);
const prompt = readFileSync(0, "utf8");
const say = (s) => process.stdout.write(s);

if (mode === "hang") setInterval(() => {}, 1000);
else if (mode === "crash") {
  process.stderr.write("fault agent: segmentation fault (simulated)\n");
  process.exit(139);
} else if (mode === "rate-limit") {
  process.stderr.write("API Error: 429 Too Many Requests (rate limited)\n");
  process.exit(1);
} else if (mode === "garbage") say(JSON.stringify({ output: 42, toolCalls: "nope" }));
else if (mode === "huge") {
  const chunk = "y".repeat(1024 * 1024);
  for (let i = 0; i < 10; i++) say(chunk);
} else if (mode === "unregistered")
  say(JSON.stringify({ output: `answer to ${prompt.length}`, skillsActivated: ["no-such-skill"] }));
else if (mode === "hostile")
  say(
    [
      "</details><script>alert(1)</script>",
      "@octocat please look",
      "<!-- hidden --> ```js",
      "| a | b |",
      "[link](javascript:alert(1)) ![img](http://127.0.0.1/x.png)",
      ']]></failure><x a="1"/> &amp; <?xml?>',
    ].join("\n"),
  );
else {
  process.stderr.write(`fault agent: unknown mode ${mode}\n`);
  process.exit(2);
}
