/**
 * Secrets never leave: every value of skillgate's own environment that is not on an explicit allow-list of
 * harmless names is replaced by `[REDACTED]` wherever it appears in what skillgate writes (report, terminal, job
 * summary, check run, annotations, comment, JUnit, SARIF, exports, recordings, trial cache), raw and in the
 * encodings code commonly applies to it: JSON and URL escaping, every byte `%XX` and every character `\uXXXX` (each
 * in either case), hex, base64 and base64url at every byte offset, on one line or wrapped over many at any width
 * (MIME's 76, PEM's 64), with raw or JSON-escaped line ends.
 *
 * It is a net for the encodings tools apply, not a boundary: code that means to can always invent one more (a
 * reversed or XORed secret). What keeps secrets from untrusted code is that it never gets them (src/sandbox/).
 *
 * Redaction is by value, not by name: a secret kept in an innocently named variable (`DATABASE_URL`, a webhook
 * URL) is still a secret. Untrusted code can read files and transform what it finds, so the allow-list decides
 * what may pass, never a guess at what looks secret.
 */

export const REDACTED = "[REDACTED]";

/** Values shorter than this are left alone: they would mangle ordinary text ("true", "1", "main"). */
const MIN_REDACTED_LENGTH = 8;

/** Names of skillgate's environment whose values are not secrets and appear legitimately in its outputs. */
const SAFE_NAMES = new Set([
  "PATH",
  "HOME",
  "PWD",
  "OLDPWD",
  "SHELL",
  "USER",
  "LOGNAME",
  "HOSTNAME",
  "SHLVL",
  "_",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TERM",
  "COLORTERM",
  "TMPDIR",
  "TEMP",
  "TMP",
  "CI",
  "NODE_ENV",
  "NODE",
  "INIT_CWD",
  "EDITOR",
  "PAGER",
  "DEBIAN_FRONTEND",
  "ANTHROPIC_MODEL",
  "OPENAI_MODEL",
  // Where version managers and toolchains are installed: paths a message about a program must be able to name.
  "PYENV_ROOT",
  "RBENV_ROOT",
  "NODENV_ROOT",
  "GOENV_ROOT",
  "ASDF_DIR",
  "ASDF_DATA_DIR",
  "MISE_DATA_DIR",
  "VOLTA_HOME",
  "NVM_DIR",
  "PNPM_HOME",
  "VIRTUAL_ENV",
  "CONDA_PREFIX",
  "GOROOT",
  "GOPATH",
  "CARGO_HOME",
  "RUSTUP_HOME",
  "JAVA_HOME",
  // Where TLS clients find the trusted CA certificates: public paths (`/etc/ssl/certs`), which a trace of a
  // program touching that folder must be able to name.
  "SSL_CERT_DIR",
  "SSL_CERT_FILE",
  "NODE_EXTRA_CA_CERTS",
  "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE",
  "GIT_SSL_CAINFO",
]);

/**
 * Prefixes of names whose values are run context, not secrets (the repository, commit, workflow, runner paths,
 * locale, the action's own inputs, npm's script environment) — unless the name itself says credential.
 */
const SAFE_PREFIXES = ["LC_", "XDG_", "GITHUB_", "RUNNER_", "INPUT_", "npm_", "SKILLGATE_"];

/** A name that says it holds a credential is redacted even under a safe prefix (`GITHUB_TOKEN`, `INPUT_GITHUB-TOKEN`). */
const CREDENTIAL_NAME = /TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|SIGNATURE/i;

export function isRedactedName(name: string): boolean {
  if (CREDENTIAL_NAME.test(name)) return true;
  if (SAFE_NAMES.has(name)) return false;
  return !SAFE_PREFIXES.some((p) => name.startsWith(p));
}

/** The values to redact from `env`: every variable not on the allow-list, long enough to mean something. */
export function secretsOfEnvironment(env: NodeJS.ProcessEnv = process.env): string[] {
  const out = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.trim().length < MIN_REDACTED_LENGTH) continue;
    if (isRedactedName(name)) out.add(value);
  }
  return [...out];
}

/**
 * The values of variables whose names say credential: registered with the Actions runner as masks too (masks
 * last for the whole job, so the broader allow-list rule would also hide harmless paths in later steps).
 */
export function credentialsOfEnvironment(env: NodeJS.ProcessEnv = process.env): string[] {
  const out = new Set<string>();
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && value.trim().length >= MIN_REDACTED_LENGTH && CREDENTIAL_NAME.test(name))
      out.add(value);
  return [...out];
}

/** The stable core of base64(prefix of `offset` unknown bytes + bytes): the groups the bytes alone decide. */
function base64Cores(bytes: Buffer, alphabet: "base64" | "base64url"): string[] {
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    // With `offset` foreign bytes before it, the secret's first full 3-byte group starts (3 - offset) % 3 in.
    const body = bytes.subarray((3 - offset) % 3);
    const full = Math.floor(body.length / 3) * 3;
    if (full === 0) continue;
    cores.push(body.subarray(0, full).toString(alphabet));
  }
  return cores;
}

const hex2 = (n: number) => n.toString(16).padStart(2, "0");

/** Every byte `%XX`, in one case: what a full percent-encoder prints. */
const percentAll = (bytes: Buffer, upper: boolean) =>
  [...bytes].map((b) => `%${upper ? hex2(b).toUpperCase() : hex2(b)}`).join("");

/** Every UTF-16 unit as a JSON `\uXXXX` escape, in one case. */
const unicodeAll = (secret: string, upper: boolean) =>
  [...Array(secret.length).keys()]
    .map((i) => `\\u${secret.charCodeAt(i).toString(16).padStart(4, "0")}`)
    .map((e) => (upper ? `\\u${e.slice(2).toUpperCase()}` : e))
    .join("");

/** The forms one secret can take on one line of text skillgate writes (wrapped base64: `Redactor.redactWrapped`). */
export function encodingsOf(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms = new Set<string>([
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, "+"),
    percentAll(bytes, false),
    percentAll(bytes, true),
    unicodeAll(secret, false),
    unicodeAll(secret, true),
    bytes.toString("hex"),
    bytes.toString("hex").toUpperCase(),
    ...base64Cores(bytes, "base64"),
    ...base64Cores(bytes, "base64url"),
  ]);
  return [...forms].filter((f) => f.length >= MIN_REDACTED_LENGTH);
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The base64 and base64url cores of one secret: what a wrapped block is searched for once its breaks are gone. */
function wrappableCores(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  return [...base64Cores(bytes, "base64"), ...base64Cores(bytes, "base64url")].filter(
    (c) => c.length >= MIN_REDACTED_LENGTH,
  );
}

/**
 * A line end inside a wrapped base64 text (MIME at 76, PEM at 64, any other length), raw or as a JSON escape (a
 * wrapped blob inside a JSON string), with the next line's indent.
 */
const LINE_BREAK = /(?:\r?\n|\\r\\n|\\n)[ \t]*/y;
const ANY_BREAK = /\r?\n|\\r\\n|\\n/g;

/** Is this UTF-16 unit of the base64 or base64url alphabet? */
function isBase64Unit(c: number): boolean {
  return (
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    (c >= 48 && c <= 57) ||
    c === 43 ||
    c === 47 ||
    c === 45 ||
    c === 95
  );
}

/** Where the run of base64 characters that starts at `from` ends. */
function runEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && isBase64Unit(text.charCodeAt(i))) i++;
  return i;
}

/**
 * The wrapped block a line break at `at` sits in: base64 runs joined by line breaks, from the run before the
 * break to the last run that a break continues. Undefined when the break joins no two runs.
 */
function blockAround(text: string, at: number): { start: number; end: number } | undefined {
  let start = at;
  while (start > 0 && isBase64Unit(text.charCodeAt(start - 1))) start--;
  if (start === at) return undefined;
  let end = at;
  for (;;) {
    LINE_BREAK.lastIndex = end;
    if (!LINE_BREAK.test(text)) break;
    const next = runEnd(text, LINE_BREAK.lastIndex);
    if (next === LINE_BREAK.lastIndex) break;
    end = next;
  }
  return end === at ? undefined : { start, end };
}

/** The base64 runs of a block without the breaks between them, and where each joined character stands. */
function joinRuns(block: string): { joined: string; at: number[] } {
  const at: number[] = [];
  let joined = "";
  for (let i = 0; i < block.length; ) {
    const end = runEnd(block, i);
    for (let k = i; k < end; k++) at.push(k);
    joined += block.slice(i, end);
    LINE_BREAK.lastIndex = end;
    i = LINE_BREAK.test(block) ? LINE_BREAK.lastIndex : end + 1;
  }
  return { joined, at };
}

export class Redactor {
  /** Every form of every secret, longest first (a longer form may contain a shorter one). */
  readonly forms: readonly string[];

  /** One alternation of every form: a single pass over the text (a loop of `includes` per form was 6× slower). */
  private readonly pattern: RegExp | undefined;
  /** The base64 cores alone, searched for in wrapped blocks once their line breaks are taken out. */
  private readonly cores: RegExp | undefined;

  constructor(secrets: readonly string[]) {
    const all = new Set<string>();
    for (const s of secrets) for (const f of encodingsOf(s)) all.add(f);
    this.forms = [...all].sort((a, b) => b.length - a.length);
    this.pattern = this.forms.length ? new RegExp(this.forms.map(escapeRegex).join("|"), "g") : undefined;
    const cores = [...new Set(secrets.flatMap(wrappableCores))].sort((a, b) => b.length - a.length);
    this.cores = cores.length ? new RegExp(cores.map(escapeRegex).join("|"), "g") : undefined;
  }

  get empty(): boolean {
    return this.forms.length === 0;
  }

  redact(text: string): string {
    if (!this.pattern || text.length < MIN_REDACTED_LENGTH) return text;
    return this.redactWrapped(text.replace(this.pattern, REDACTED));
  }

  /**
   * A secret's base64 broken over lines: each line break between two base64 runs is followed out to its whole
   * block, which is searched with its breaks taken out and cut where a core lay. Breaks between other text (most
   * of them) cost one look at the character before.
   */
  private redactWrapped(text: string): string {
    const cores = this.cores;
    if (!cores) return text;
    const spans: [number, number][] = [];
    let done = 0;
    ANY_BREAK.lastIndex = 0;
    for (let m = ANY_BREAK.exec(text); m; m = ANY_BREAK.exec(text)) {
      const brk = m.index;
      if (brk < done || !isBase64Unit(text.charCodeAt(brk - 1))) continue;
      const block = blockAround(text, brk);
      if (!block) continue;
      done = block.end;
      ANY_BREAK.lastIndex = Math.max(ANY_BREAK.lastIndex, block.end);
      if (block.end - block.start < MIN_REDACTED_LENGTH) continue;
      const { joined, at: where } = joinRuns(text.slice(block.start, block.end));
      for (const m of joined.matchAll(cores))
        spans.push([
          block.start + (where[m.index] as number),
          block.start + (where[m.index + m[0].length - 1] as number) + 1,
        ]);
    }
    if (spans.length === 0) return text;
    let out = "";
    let from = 0;
    for (const [start, end] of spans) {
      if (start < from) continue;
      out += `${text.slice(from, start)}${REDACTED}`;
      from = end;
    }
    return out + text.slice(from);
  }

  /**
   * `redact`, and also a secret's beginning where the text ends: text cut by a size cap (an agent's capped
   * stdout, a child's stderr) may end in the first part of a secret that no longer matches whole.
   */
  redactCut(text: string): string {
    const out = this.redact(text);
    if (this.empty) return out;
    const tail = out.slice(-this.forms[0]!.length);
    for (const f of this.forms) {
      if (!tail.includes(f.slice(0, MIN_REDACTED_LENGTH))) continue;
      // the longest prefix of f (≥ MIN_REDACTED_LENGTH) that the text ends with
      for (let n = Math.min(f.length - 1, tail.length); n >= MIN_REDACTED_LENGTH; n--)
        if (tail.endsWith(f.slice(0, n))) return `${out.slice(0, out.length - n)}${REDACTED}`;
    }
    return out;
  }

  /** A copy of `value` with every string (keys included) redacted; values without a secret are returned as is. */
  redactDeep<T>(value: T, o: { cut?: boolean } = {}): T {
    if (this.empty) return value;
    return this.walk(value, o.cut === true) as T;
  }

  private walk(value: unknown, cut: boolean): unknown {
    if (typeof value === "string") return cut ? this.redactCut(value) : this.redact(value);
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((v) => {
        const r = this.walk(v, cut);
        if (r !== v) changed = true;
        return r;
      });
      return changed ? out : value;
    }
    if (value !== null && typeof value === "object" && !Buffer.isBuffer(value)) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const rk = this.redact(k);
        const rv = this.walk(v, cut);
        if (rk !== k || rv !== v) changed = true;
        out[rk] = rv;
      }
      return changed ? out : value;
    }
    return value;
  }
}

let processRedactor: Redactor | undefined;

/** The redactor for this process's environment, built on first use (the environment is read once). */
export function outputRedactor(): Redactor {
  processRedactor ??= new Redactor(secretsOfEnvironment());
  return processRedactor;
}

/** Redacts `text` with this process's redactor: the one call every writer of output makes. */
export function redactOutput(text: string): string {
  return outputRedactor().redact(text);
}
