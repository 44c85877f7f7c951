import { realpathSync } from "node:fs";
import { isAbsolute, join, posix, relative, sep } from "node:path";
import type {
  Assertion,
  Case,
  CaseFile,
  Diagnostic,
  SourceLocation,
  SuiteMeta,
  SuitePartProblem,
} from "../model/index.js";
import { readFileBytes } from "../util/read-file.js";
import { DirIndex } from "./dir-index.js";
import { FOREIGN_CHECK } from "./foreign-vars.js";
import { assertionSchema, COMMON_ASSERTION_KEYS, type Schema } from "./schemas.js";
import { type PathSegment, parseSourceFile, type SourceFile } from "./source-file.js";
import { validateAgainst } from "./validate.js";

/** A problem of one assertion found before any trial runs; `path` is inside the assertion. */
export interface StaticProblem {
  path: PathSegment[];
  code: string;
  message: string;
  severity?: "error" | "warning";
  /** Wrong in the syntax its own tool reads (an RE2 pattern RE2 rejects): an error in another tool's format too. */
  ownSyntax?: boolean;
}

/** What the suite loaders need to know about assertion types (the grade stage's registry supplies it). */
export interface AssertionTypeLookup {
  /** JSON Schema of the type's own params, or undefined when the type is unknown. */
  schemaOf(type: string): object | undefined;
  names(): string[];
  /** Static checks of a normalised assertion (invalid regexes, unknown gates, gate options …). */
  check?(a: Assertion): StaticProblem[];
  /** Placeholders of a whole case (prompt, assertions, conditions) against the variables known before a trial. */
  checkTemplates?(
    c: Case,
    meta: SuiteMeta | undefined,
  ): { loc: SourceLocation; code: string; message: string }[];
}

/** Shared helpers for the format loaders: reading files with located diagnostics. */
export class SuiteReader {
  readonly diagnostics: Diagnostic[] = [];
  readonly sourceFiles: string[] = [];
  /** Problems confined to one case or trigger file (see `Suite.partProblems`), in the order found. */
  readonly partProblems: SuitePartProblem[] = [];
  /** Every file read so far, parsed (undefined: it did not parse). */
  private readonly parsed = new Map<string, SourceFile | undefined>();
  /** What reading and parsing each file reported (reported once, whichever part read it first). */
  private readonly fileProblems = new Map<string, Diagnostic[]>();
  private readonly inPart = new Set<Diagnostic>();
  /** Where each part being loaded began in `diagnostics`, innermost last. */
  private readonly partStarts: number[] = [];

  constructor(
    readonly repoDir: string,
    readonly assertionTypes: AssertionTypeLookup,
    /** Shared by every suite of one discovery, so each folder is listed once. */
    readonly dirs: DirIndex = new DirIndex(repoDir),
  ) {}

  /** Files another skill's suite owns (they name it), hidden while this skill's folders are read. */
  private hidden: ReadonlySet<string> = new Set();

  hide(files: ReadonlySet<string>): void {
    this.hidden = files;
  }

  exists(rel: string): boolean {
    return !this.hidden.has(rel) && this.dirs.exists(rel);
  }

  isDir(rel: string): boolean {
    return this.dirs.isDir(rel);
  }

  /** `isDir` without listing the parent folder when it has not been listed (see `DirIndex.probeDir`). */
  probeDir(rel: string): boolean {
    return this.dirs.probeDir(rel);
  }

  list(relDir: string, pattern: RegExp): string[] {
    const listing = this.dirs.list(relDir);
    if (!listing) return [];
    return [...listing.keys()]
      .filter((f) => pattern.test(f))
      .sort()
      .map((f) => posix.join(relDir, f))
      .filter((f) => !this.hidden.has(f));
  }

  /**
   * Reads and parses a YAML/JSON file once per discovery (two formats may look at the same file, e.g. a
   * `trigger-eval.json` in seed's object form or skill-creator's array form); undefined (with diagnostics,
   * reported once) when it does not parse.
   */
  read(rel: string): SourceFile | undefined {
    this.sourceFiles.push(rel);
    if (this.parsed.has(rel)) return this.parsed.get(rel);
    const src = this.readOnce(rel);
    this.parsed.set(rel, src);
    return src;
  }

  private readOnce(rel: string): SourceFile | undefined {
    const first = this.diagnostics.length;
    try {
      return this.readAndParse(rel);
    } finally {
      this.fileProblems.set(rel, this.diagnostics.slice(first));
    }
  }

  private readAndParse(rel: string): SourceFile | undefined {
    const text = this.readTextOf(rel);
    if (text === undefined) return undefined;
    const src = parseSourceFile(rel, text);
    this.diagnostics.push(...src.diagnostics);
    return src.value === undefined ? undefined : src;
  }

  /** A text file of a suite (a Markdown grader), read as it is; undefined (with an error) when it cannot be. */
  readText(rel: string): string | undefined {
    this.sourceFiles.push(rel);
    return this.readTextOf(rel);
  }

  private readTextOf(rel: string): string | undefined {
    try {
      // A suite folder or file may be a symbolic link (the PR's to make): it is read only inside the repository.
      const real = this.realPath(rel);
      if (!within(this.realRepo(), real)) {
        this.error(
          { file: rel, line: 1, column: 1 },
          "suite/link-outside",
          "suite file links outside the repository: not read",
        );
        return undefined;
      }
      return readFileBytes(real).toString("utf8");
    } catch (e) {
      this.error(
        { file: rel, line: 1, column: 1 },
        "file/unreadable",
        `cannot read file: ${(e as Error).message}`,
      );
      return undefined;
    }
  }

  /**
   * Loads one part of a suite (a case, the cases of one file, a trigger file): every error reported meanwhile,
   * and every problem of a file read meanwhile, is that part's (`partProblems`), so `run` leaves out that part
   * only. `ok` is false when the part has an error. Parts may nest: a problem belongs to the innermost.
   */
  withinPart<T>(part: Omit<SuitePartProblem, "diagnostic">, load: () => T): { value: T; ok: boolean } {
    const first = this.diagnostics.length;
    const firstRead = this.sourceFiles.length;
    this.partStarts.push(first);
    let value: T;
    try {
      value = load();
    } finally {
      this.partStarts.pop();
    }
    const found = this.diagnostics.slice(first).filter((d) => d.severity === "error");
    for (const f of new Set(this.sourceFiles.slice(firstRead)))
      for (const d of this.fileProblems.get(f) ?? []) if (d.severity === "error") found.push(d);
    let ok = true;
    for (const d of new Set(found)) {
      ok = false;
      if (this.inPart.has(d)) continue;
      this.inPart.add(d);
      this.partProblems.push({ ...part, diagnostic: d });
    }
    return { value, ok };
  }

  /** A problem `run` must not pass over but `validate` only warns of (a case with nothing to check). */
  partWarning(
    part: Omit<SuitePartProblem, "diagnostic">,
    loc: SourceLocation,
    code: string,
    message: string,
  ) {
    const d: Diagnostic = { ...loc, severity: "warning", code, message };
    this.diagnostics.push(d);
    this.partProblems.push({ ...part, diagnostic: d });
  }

  notice(loc: SourceLocation, code: string, message: string): void {
    this.diagnostics.push({ ...loc, severity: "notice", code, message });
  }

  /** Whether `value` passes `schema` (its problems go to the diagnostics), and so is the schema's shape. */
  validate<T>(
    schema: Schema<T>,
    value: unknown,
    src: SourceFile,
    path: readonly PathSegment[],
    code: string,
    alsoKnown: readonly string[] = [],
  ): value is T {
    const ds = validateAgainst(schema, value, src, path, code, alsoKnown);
    this.diagnostics.push(...ds);
    return ds.length === 0;
  }

  /** The parse errors of `rel` as warnings, saying why: for a file no tool reads where it is (`placeSuites`). */
  demoteParseErrors(rel: string, why: string): void {
    for (const d of this.fileProblems.get(rel) ?? [])
      if (d.severity === "error") {
        d.severity = "warning";
        d.message = `${d.message}; ${why}`;
      }
  }

  error(loc: SourceLocation, code: string, message: string): void {
    this.diagnostics.push({ ...loc, severity: "error", code, message });
  }

  warn(loc: SourceLocation, code: string, message: string): void {
    this.diagnostics.push({ ...loc, severity: "warning", code, message });
  }

  /** Whether `type` (or, with a `not-` prefix, the rest of it) is an assertion type skillgate grades. */
  knowsAssertionType(type: string): boolean {
    const known = (t: string) => this.assertionTypes.schemaOf(t) !== undefined;
    return known(type) || (type.startsWith("not-") && known(type.slice(4)));
  }

  /**
   * Normalises one assertion object found at `path` in `src`. Returns undefined when it is unusable
   * (diagnostics say why).
   */
  assertion(
    raw: unknown,
    src: SourceFile,
    path: readonly PathSegment[],
    opts: { foreign?: boolean } = {},
  ): Assertion | undefined {
    if (!this.validate(assertionSchema, raw, src, path, "suite/assertion")) return undefined;
    const a = raw;
    const loc = src.locate(path);
    const rawType = a.type;
    let type = rawType;
    let negate = false;
    if (!this.assertionTypes.schemaOf(rawType) && rawType.startsWith("not-")) {
      type = rawType.slice(4);
      negate = true;
    }
    const schema = this.assertionTypes.schemaOf(type);
    if (!schema) {
      this.error(
        src.locate([...path, "type"]),
        "suite/unknown-assertion-type",
        `unknown assertion type \`${rawType}\`; known types: ${this.assertionTypes.names().join(", ")} (any may take a \`not-\` prefix)`,
      );
      return undefined;
    }
    const params: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(a)) if (!COMMON_ASSERTION_KEYS.has(k)) params[k] = v;
    if (!this.validate(schema, params, src, path, "suite/assertion-params", [...COMMON_ASSERTION_KEYS]))
      return undefined;
    const id = a.id;
    const dependsOn = a.depends_on === undefined ? [] : [a.depends_on].flat();
    const assertion: Assertion = {
      id,
      rawType,
      type,
      negate,
      discriminator: a.discriminator === true || id.startsWith("D:"),
      dependsOn,
      condition: a.condition,
      extract: a.extract,
      level: a.level,
      description: a.description,
      ...(a.rubric !== undefined ? { rubric: a.rubric } : {}),
      params,
      loc,
    };
    const problems = this.assertionTypes.check?.(assertion) ?? [];
    // Mapped from another tool's format, a check skillgate cannot run as written (a regex in a dialect
    // JavaScript lacks) is not graded, said at its line; the rest of its case runs.
    // A value wrong in its own tool's syntax (an RE2 pattern RE2 rejects) stays an error: the suite is wrong.
    const wrong = problems.some((p) => (p.severity ?? "error") === "error" && p.ownSyntax);
    const unusable = opts.foreign && !wrong && problems.some((p) => (p.severity ?? "error") === "error");
    for (const p of problems)
      this.diagnostics.push({
        ...src.locate([...path, ...p.path]),
        severity: unusable ? "notice" : (p.severity ?? "error"),
        code: unusable ? "suite/not-graded" : p.code,
        message: unusable ? `not graded: ${p.message}` : `assertion \`${id}\`: ${p.message}`,
      });
    if (unusable) return undefined;
    // Another tool's values have no placeholders: `$` stays text (`$$`, which grading turns back into `$`), but for
    // the names meta.json `vars` defines, known once the whole suite is read (`foreignChecks`).
    if (!opts.foreign) return assertion;
    const mapped: Assertion & { [FOREIGN_CHECK]?: true } = {
      ...assertion,
      params: literalValues(assertion.params),
    };
    mapped[FOREIGN_CHECK] = true;
    return mapped;
  }

  /** Case `files`: strings or `{from, to}`; `from` is relative to the suite root and must exist. */
  caseFiles(raw: unknown, suiteRoot: string, src: SourceFile, path: readonly PathSegment[]): CaseFile[] {
    if (!Array.isArray(raw)) return [];
    const out: CaseFile[] = [];
    raw.forEach((f, i) => {
      const from = typeof f === "string" ? f : String((f as { from: string }).from);
      const to =
        typeof f === "string"
          ? defaultDestination(f)
          : ((f as { to?: string }).to ?? defaultDestination(from));
      const rel = posix.normalize(posix.join(suiteRoot, from));
      if (from.startsWith("/") || !this.inside(rel, suiteRoot)) {
        this.error(
          src.locate([...path, i]),
          "suite/file-outside",
          `file \`${from}\` must lie inside the suite folder${suiteRoot === "." ? " (the repository)" : ` ${suiteRoot}/`}`,
        );
        return;
      }
      if (to.startsWith("/") || posix.normalize(to).startsWith("..")) {
        this.error(
          src.locate([...path, i]),
          "suite/file-outside",
          `destination \`${to}\` must be workspace-relative`,
        );
        return;
      }
      if (!this.exists(rel)) {
        this.error(
          src.locate([...path, i]),
          "suite/file-missing",
          `file \`${from}\` not found (looked for ${rel})`,
        );
        return;
      }
      out.push({ from: rel, to: posix.normalize(to) });
    });
    return out;
  }

  /**
   * Whether repository path `rel` lies inside folder `dir`, by path segments (`foo-data/x` is not inside `foo`)
   * and by real path: a symbolic link in the suite folder must not copy a file from elsewhere into a trial.
   * A path that does not exist is judged by its segments (it is reported missing).
   */
  inside(rel: string, dir: string): boolean {
    const bySegments = (p: string, d: string) =>
      d === "." || d === ""
        ? p !== ".." && !p.startsWith("../") && !posix.isAbsolute(p)
        : p === d || p.startsWith(`${d}/`);
    if (!bySegments(rel, dir)) return false;
    let real: string;
    let realDir: string;
    try {
      real = realpathSync.native(join(this.repoDir, rel));
      realDir = realpathSync.native(join(this.repoDir, dir));
    } catch {
      return true;
    }
    return within(realDir, real);
  }

  private realRepoDir?: string;
  private readonly realPaths = new Map<string, string>();

  private realRepo(): string {
    this.realRepoDir ??= realpathSync.native(this.repoDir);
    return this.realRepoDir;
  }

  /**
   * The real path of repository path `rel`, from folder listings already in memory where they say an entry is no
   * link (a suite's files sit in folders its loader listed), else from the system (memoised per path): 0–1
   * system calls per suite instead of one `realpath` per file.
   */
  private realPath(rel: string): string {
    if (rel === "" || rel === ".") return this.realRepo();
    let real = this.realPaths.get(rel);
    if (real !== undefined) return real;
    const slash = rel.lastIndexOf("/");
    const parent = slash < 0 ? "" : rel.slice(0, slash);
    const entry = this.dirs.peek(parent, rel.slice(slash + 1));
    real =
      entry && !entry.link
        ? join(this.realPath(parent), rel.slice(slash + 1))
        : realpathSync.native(join(this.repoDir, rel));
    this.realPaths.set(rel, real);
    return real;
  }

  /** Located errors for the placeholders of case `c` that cannot resolve, or resolve to values its checks refuse. */
  checkTemplates(c: Case, meta: SuiteMeta | undefined): void {
    for (const p of this.assertionTypes.checkTemplates?.(c, meta) ?? []) this.error(p.loc, p.code, p.message);
  }

  /**
   * Checks a case has checks, its ids are unique and `depends_on` points at assertions of the same case,
   * without cycles. A case with no check would "pass" every trial: never run, and never a silent pass — a
   * warning in `validate` (skill-creator's own flow writes prompts before assertions), an error root of that case
   * in `run` (`partProblems`). `hint` says how to add checks in the case's own format.
   */
  checkCase(
    c: Case,
    hint = `inline \`assertions:\`, or a file assertions/${c.id}.yaml in the seed layout`,
  ): boolean {
    const start = this.partStarts.at(-1);
    // A case whose checks did not load already has its error: "no checks" would only repeat it.
    const failed = start !== undefined && this.diagnostics.slice(start).some((d) => d.severity === "error");
    if (c.assertions.length === 0 && failed) return false;
    if (c.assertions.length === 0) {
      this.partWarning(
        { part: "case", caseId: c.id },
        c.loc,
        "suite/case-no-checks",
        `case \`${c.id}\` has no checks yet: \`run\` cannot grade it (add ${hint})`,
      );
      return false;
    }
    const ids = new Map<string, Assertion>();
    for (const a of c.assertions) {
      if (ids.has(a.id))
        this.error(
          a.loc,
          "suite/duplicate-assertion",
          `duplicate assertion id \`${a.id}\` in case \`${c.id}\``,
        );
      ids.set(a.id, a);
    }
    for (const a of c.assertions)
      for (const d of a.dependsOn)
        if (!ids.has(d))
          this.error(
            a.loc,
            "suite/unknown-dependency",
            `assertion \`${a.id}\` depends on \`${d}\`, which case \`${c.id}\` does not define`,
          );
    const state = new Map<string, 1 | 2>();
    const visit = (a: Assertion, stack: string[]): void => {
      if (state.get(a.id) === 2) return;
      if (state.get(a.id) === 1) {
        this.error(a.loc, "suite/dependency-cycle", `depends_on cycle: ${[...stack, a.id].join(" → ")}`);
        return;
      }
      state.set(a.id, 1);
      for (const d of a.dependsOn) {
        const dep = ids.get(d);
        if (dep) visit(dep, [...stack, a.id]);
      }
      state.set(a.id, 2);
    };
    for (const a of c.assertions) visit(a, []);
    return true;
  }
}

/** Whether absolute path `p` is `dir` or lies below it. */
function within(dir: string, p: string): boolean {
  const r = relative(dir, p);
  return r === "" || (!r.startsWith(`..${sep}`) && r !== ".." && !isAbsolute(r));
}

/** `fixtures/x/package.json` → `x/package.json`; `evals/files/a.csv` → `a.csv`; anything else keeps its path. */
function defaultDestination(from: string): string {
  const norm = posix.normalize(from);
  const m = /^(?:.*\/)?(?:fixtures|files)\/(.+)$/.exec(norm);
  return m ? m[1]! : norm;
}

/** Every string in `v` with each `$` written `$$`: a literal `$` for `resolvePlaceholders`. */
function literalValues<T>(v: T): T {
  if (typeof v === "string") return v.replaceAll("$", "$$$$") as T;
  if (Array.isArray(v)) return v.map(literalValues) as T;
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, literalValues(x)])) as T;
  return v;
}
