/**
 * Runs a bundled action step (`dist/index.js`, then optionally `dist/post.js`) the way the Actions runner does:
 * every input of action.yml as `INPUT_<NAME>` with its default applied and the step's `with:` on top
 * (`${{ github.token }}` substituted), the event payload at GITHUB_EVENT_PATH, the `GITHUB_*` variables, file
 * commands for outputs, state and the job summary, RUNNER_TEMP, and nothing else from this process's environment.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { parse } from "yaml";

const ROOT = join(import.meta.dirname, "../..");

export interface ActionStep {
  /** Folder of the bundle (index.js, post.js). */
  dist: string;
  /** Node binary (default this process's). */
  node?: string;
  /** GITHUB_WORKSPACE: the checkout. */
  workspace: string;
  eventName: string;
  payload: unknown;
  /** The step's `with:`, evaluated. */
  with?: Record<string, string>;
  /** The step's and job's `env:`, evaluated. */
  env?: Record<string, string>;
  apiUrl: string;
  /** `owner/repo`. */
  repository: string;
  /** GITHUB_SHA (for pull_request: the test merge commit). */
  sha: string;
  /** GITHUB_WORKFLOW_REF's path (`.github/workflows/x.yml`) and GITHUB_JOB. */
  workflow?: string;
  job?: string;
  /** PATH of the runner (default this process's). */
  path?: string;
  timeoutMs?: number;
  /** `GITHUB_TOKEN` the runner substitutes for `${{ github.token }}`. */
  token?: string;
  /** Earlier steps of the job: called with the step's environment before it starts (e.g. to restore a cache). */
  before?(env: Record<string, string>): void | Promise<void>;
}

export interface StepResult {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  state: Record<string, string>;
  summary: string;
  runnerTemp: string;
  env: Record<string, string>;
}

/** `name<<delimiter` blocks of a file command (GITHUB_OUTPUT, GITHUB_STATE). */
export async function readFileCommand(file: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const lines = (await readFile(file, "utf8")).split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]!);
    if (!m) {
      const kv = /^([^=]+)=(.*)$/.exec(lines[i]!);
      if (kv) out[kv[1]!] = kv[2]!;
      continue;
    }
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]!);
    out[m[1]!] = value.join("\n");
  }
  return out;
}

/** INPUT_* as the runner sets them: every input of action.yml, defaults applied, then the step's `with:`. */
export async function actionInputEnv(
  withInputs: Record<string, string>,
  token: string,
): Promise<Record<string, string>> {
  const action = parse(await readFile(join(ROOT, "action.yml"), "utf8")) as {
    inputs: Record<string, { default?: string }>;
  };
  const unknown = Object.keys(withInputs).filter((k) => !(k in action.inputs));
  if (unknown.length)
    throw new Error(`the step sets inputs action.yml does not declare: ${unknown.join(", ")}`);
  const env: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    const raw = withInputs[name] ?? spec.default ?? "";
    env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] = raw.replace(
      /\$\{\{\s*github\.token\s*\}\}/g,
      token,
    );
  }
  return env;
}

/** The environment of one step, and the runner's files. */
export async function stepEnvironment(
  step: ActionStep,
): Promise<{ env: Record<string, string>; temp: string }> {
  const temp = await mkdtemp(join(tmpdir(), "sg-runner-"));
  const files = {
    event: join(temp, "event.json"),
    output: join(temp, "output"),
    state: join(temp, "state"),
    summary: join(temp, "summary.md"),
  };
  await writeFile(files.event, JSON.stringify(step.payload));
  for (const f of [files.output, files.state, files.summary]) await writeFile(f, "");
  const token = step.token ?? "ghs_runnertoken";
  const env: Record<string, string> = {
    PATH: step.path ?? process.env.PATH ?? "/usr/bin:/bin",
    HOME: temp,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: step.eventName,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_REPOSITORY: step.repository,
    GITHUB_SHA: step.sha,
    GITHUB_API_URL: step.apiUrl,
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_RUN_ID: "4242",
    GITHUB_WORKSPACE: step.workspace,
    GITHUB_OUTPUT: files.output,
    GITHUB_STATE: files.state,
    GITHUB_STEP_SUMMARY: files.summary,
    RUNNER_TEMP: temp,
    ...(step.workflow ? { GITHUB_WORKFLOW_REF: `${step.repository}/${step.workflow}@refs/heads/main` } : {}),
    ...(step.job ? { GITHUB_JOB: step.job } : {}),
    ...(step.env ?? {}),
    ...(await actionInputEnv(step.with ?? {}, token)),
  };
  return { env, temp };
}

/** Runs the main step to its end; the post step too when `post` is set (with the state the main step saved). */
export async function runActionStep(step: ActionStep, o: { post?: boolean } = {}): Promise<StepResult> {
  const { env, temp } = await stepEnvironment(step);
  await step.before?.(env);
  const node = step.node ?? process.execPath;
  const r = await execa(node, [join(step.dist, "index.js")], {
    cwd: step.workspace,
    env,
    extendEnv: false,
    reject: false,
    timeout: step.timeoutMs ?? 300_000,
  });
  const state = await readFileCommand(env.GITHUB_STATE!);
  let stdout = String(r.stdout);
  if (o.post) {
    const stateEnv = Object.fromEntries(Object.entries(state).map(([k, v]) => [`STATE_${k}`, v]));
    const p = await execa(node, [join(step.dist, "post.js")], {
      cwd: step.workspace,
      env: { ...env, ...stateEnv },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    stdout += `\n${String(p.stdout)}`;
  }
  return {
    exitCode: r.exitCode,
    stdout,
    stderr: String(r.stderr),
    outputs: await readFileCommand(env.GITHUB_OUTPUT!),
    state,
    summary: await readFile(env.GITHUB_STEP_SUMMARY!, "utf8"),
    runnerTemp: temp,
    env,
  };
}
