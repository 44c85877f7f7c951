/**
 * Secrets never leave: every value of skillgate's own environment that is not on an explicit allow-list of
 * harmless names is replaced by `[REDACTED]` wherever it appears in what skillgate writes (report, terminal, job
 * summary, check run, annotations, comment, JUnit, SARIF, exports, recordings, trial cache), raw and in the
 * encodings code commonly applies to it: JSON and URL escaping, hex, base64 and base64url at every byte offset.
 *
 * Redaction is by value, not by name: a secret kept in an innocently named variable (`DATABASE_URL`, a webhook
 * URL) is still a secret. Untrusted code can read files and transform what it finds, so the allow-list decides
 * what may pass, never a guess at what looks secret.
 */

export const REDACTED = "[REDACTED]";

/** Values shorter than this are left alone: they would mangle ordinary text ("true", "1", "main"). */
export const MIN_REDACTED_LENGTH = 8;

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

/** The forms one secret can take in text skillgate writes. */
export function encodingsOf(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms = new Set<string>([
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, "+"),
    bytes.toString("hex"),
    bytes.toString("hex").toUpperCase(),
    ...base64Cores(bytes, "base64"),
    ...base64Cores(bytes, "base64url"),
  ]);
  return [...forms].filter((f) => f.length >= MIN_REDACTED_LENGTH);
}

export class Redactor {
  /** Every form of every secret, longest first (a longer form may contain a shorter one). */
  readonly forms: readonly string[];

  /** One alternation of every form: a single pass over the text (a loop of `includes` per form was 6× slower). */
  private readonly pattern: RegExp | undefined;

  constructor(secrets: readonly string[]) {
    const all = new Set<string>();
    for (const s of secrets) for (const f of encodingsOf(s)) all.add(f);
    this.forms = [...all].sort((a, b) => b.length - a.length);
    this.pattern = this.forms.length
      ? new RegExp(this.forms.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g")
      : undefined;
  }

  get empty(): boolean {
    return this.forms.length === 0;
  }

  redact(text: string): string {
    if (!this.pattern || text.length < MIN_REDACTED_LENGTH) return text;
    return text.replace(this.pattern, REDACTED);
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
