/** The action's inputs (action.yml) read once and validated into one typed `ActionInputs`. */
import { InputError } from "../model/diagnostics.js";
import type { Mode } from "./context.js";
import type { ActionIO } from "./io.js";

export type FailOn = "fail" | "error" | "never";

/** The action's inputs (action.yml), parsed. Empty strings are "not given". */
export interface ActionInputs {
  githubToken: string;
  mode: Mode;
  config?: string;
  agent?: string;
  /** Cells of the base config's agents: matrix to evaluate (a job of a workflow matrix names one). */
  cell?: string;
  trials?: string;
  skills?: string;
  shard?: string;
  base?: string;
  seed?: string;
  checkName: string;
  comment: boolean;
  failOn: FailOn;
  /** Where the JSON report is written (workspace-relative). */
  report: string;
  /** `report` mode: the JSON reports (files or directories) to merge and post. */
  reportsFrom: string[];
  junit?: string;
  sarif?: string;
  /** Where the HTML review report is written (workspace-relative) and uploaded from; undefined: not written. */
  htmlReport?: string;
  workingDirectory: string;
  allowPullRequestTarget: boolean;
  /** A maintainer's approval of suite or policy weakening, set in the base branch's workflow. */
  allowWeakening: boolean;
}

const TRUE = ["true", "True", "TRUE"];
const FALSE = ["false", "False", "FALSE"];

/** YAML 1.2 core booleans, as `core.getBooleanInput` reads them, with a message naming the input. */
function booleanInput(io: ActionIO, name: string, fallback: boolean): boolean {
  const v = io.getInput(name);
  if (v === "") return fallback;
  if (TRUE.includes(v)) return true;
  if (FALSE.includes(v)) return false;
  throw new InputError(`input ${name}: expected true or false, got ${JSON.stringify(v)}`);
}

function oneOf<T extends string>(io: ActionIO, name: string, allowed: readonly T[], fallback: T): T {
  const v = io.getInput(name) || fallback;
  if (!allowed.includes(v as T))
    throw new InputError(`input ${name}: expected one of ${allowed.join(", ")}, got ${JSON.stringify(v)}`);
  return v as T;
}

const opt = (s: string) => (s === "" ? undefined : s);

export function readInputs(io: ActionIO): ActionInputs {
  const checkName = io.getInput("check-name") || "skillgate";
  if (checkName.length > 100)
    throw new InputError(`input check-name: at most 100 characters, got ${checkName.length}`);
  return {
    githubToken: io.getInput("github-token"),
    mode: oneOf(io, "mode", ["auto", "evaluate", "report"] as const, "auto"),
    config: opt(io.getInput("config")),
    agent: opt(io.getInput("agent")),
    cell: opt(io.getInput("cell")),
    trials: opt(io.getInput("trials")),
    skills: opt(io.getInput("skills")),
    shard: opt(io.getInput("shard")),
    base: opt(io.getInput("base")),
    seed: opt(io.getInput("seed")),
    checkName,
    comment: booleanInput(io, "comment", false),
    failOn: oneOf(io, "fail-on", ["fail", "error", "never"] as const, "fail"),
    report: io.getInput("report") || "skillgate-report.json",
    reportsFrom: (io.getInput("reports-from") || "skillgate-reports")
      .split(/[\n,]/)
      .map((s) => s.trim())
      .filter(Boolean),
    junit: opt(io.getInput("junit")),
    sarif: opt(io.getInput("sarif")),
    htmlReport: opt(io.getInput("html-report")),
    workingDirectory: io.getInput("working-directory") || ".",
    allowPullRequestTarget: booleanInput(io, "allow-pull-request-target", false),
    allowWeakening: booleanInput(io, "allow-weakening", false),
  };
}
