// Regenerates the GitHub fixtures the loopback API and the end-to-end tests use:
//   test/fixtures/github-openapi-ops.json  — the REST operations skillgate calls, from GitHub's OpenAPI description
//   test/fixtures/github-events/*.json     — real webhook payload shapes
// Both source packages are large (@octokit/openapi is ~400 MB), so they are installed into a temp dir, never
// added as dependencies. Usage: node scripts/extract-github-fixtures.mjs [DIR-WITH-node_modules]
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const OPENAPI_VERSION = "23.0.2";
const WEBHOOKS_EXAMPLES_VERSION = "7.6.1";

/** Every REST operation src/github/ calls. Add one here when the code starts calling it, then re-run. */
export const OPERATIONS = [
  "checks/create",
  "checks/update",
  "checks/list-for-ref",
  "pulls/get",
  "pulls/list-files",
  "issues/list-comments",
  "issues/create-comment",
  "issues/update-comment",
  "issues/list-labels-on-issue",
  "repos/get-content",
  "repos/get-collaborator-permission-level",
  "actions/get-actions-cache-list",
];

/** Webhook payloads the end-to-end tests start the action with: [event name, action, output file]. */
const EVENTS = [
  ["pull_request", "synchronize", "pull_request.synchronize.json"],
  // a maintainer adds the override label: the event that re-runs the check with it
  ["pull_request", "labeled", "pull_request.labeled.json"],
  // a merge queue asks for the required check on its merge group's head
  ["merge_group", "checks_requested", "merge_group.checks_requested.json"],
  ["workflow_run", "completed", "workflow_run.completed.json"],
  ["issue_comment", "created", "issue_comment.created.json"],
  ["pull_request", "labeled", "pull_request.labeled.json"],
];

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
let dir = process.argv[2];
if (!dir) {
  dir = mkdtempSync(join(tmpdir(), "skillgate-gh-fixtures-"));
  writeFileSync(join(dir, "package.json"), "{}");
  execFileSync(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      `@octokit/openapi@${OPENAPI_VERSION}`,
      `@octokit/webhooks-examples@${WEBHOOKS_EXAMPLES_VERSION}`,
    ],
    { cwd: dir, stdio: "inherit" },
  );
}
const modules = join(dir, "node_modules");

// Documentation-only keys make the fixture large and are never validated.
const DROP_KEYS = new Set(["description", "example", "examples", "summary", "externalDocs"]);
const strip = (value) =>
  JSON.parse(
    JSON.stringify(value, (key, v) =>
      DROP_KEYS.has(key) && typeof v !== "object" ? undefined : key === "examples" ? undefined : v,
    ),
  );

const spec = JSON.parse(
  readFileSync(join(modules, "@octokit/openapi/generated/api.github.com.deref.json"), "utf8"),
);
const operations = [];
for (const [path, methods] of Object.entries(spec.paths)) {
  for (const [method, op] of Object.entries(methods)) {
    if (!OPERATIONS.includes(op?.operationId)) continue;
    operations.push({
      operationId: op.operationId,
      method: method.toUpperCase(),
      path,
      parameters: (op.parameters ?? []).map((p) =>
        strip({ name: p.name, in: p.in, required: p.required ?? false, schema: p.schema }),
      ),
      requestBody: op.requestBody?.content?.["application/json"]?.schema
        ? strip(op.requestBody.content["application/json"].schema)
        : null,
      responses: Object.fromEntries(
        Object.entries(op.responses).map(([status, r]) => [
          status,
          r.content?.["application/json"]?.schema ? strip(r.content["application/json"].schema) : null,
        ]),
      ),
    });
  }
}
const missing = OPERATIONS.filter((id) => !operations.some((o) => o.operationId === id));
if (missing.length) throw new Error(`operations not found in the OpenAPI description: ${missing.join(", ")}`);
operations.sort((a, b) => a.operationId.localeCompare(b.operationId));
writeFileSync(
  join(root, "test/fixtures/github-openapi-ops.json"),
  `${JSON.stringify({ source: `@octokit/openapi@${OPENAPI_VERSION} generated/api.github.com.deref.json`, openapi: spec.openapi, apiVersion: spec.info.version, operations }, null, 1)}\n`,
);

const examples = JSON.parse(
  readFileSync(join(modules, "@octokit/webhooks-examples/api.github.com/index.json"), "utf8"),
);
mkdirSync(join(root, "test/fixtures/github-events"), { recursive: true });
for (const [name, action, file] of EVENTS) {
  const payload = examples.find((e) => e.name === name)?.examples.find((e) => e.action === action);
  if (!payload) throw new Error(`no ${name}.${action} example in @octokit/webhooks-examples`);
  writeFileSync(join(root, "test/fixtures/github-events", file), `${JSON.stringify(payload, null, 2)}\n`);
}
console.log(`wrote ${operations.length} operations and ${EVENTS.length} event payloads`);
