/** Environment hygiene for untrusted code: pass a few harmless basics, never a credential, and redact any leak. */
import { outputRedactor, Redactor, secretsOfEnvironment } from "../util/redact.js";

/** Variables untrusted code may see (copied from the parent when set). Everything else is dropped. */
const PASSED_ENV_NAMES: readonly string[] = [
  "PATH",
  "HOME",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "LC_MESSAGES",
  "TZ",
  "TMPDIR",
  "TEMP",
  "TMP",
  "TERM",
  "SHELL",
  "USER",
  "LOGNAME",
  "SYSTEMROOT",
  "WINDIR",
  "COMSPEC",
];

/** Names that hold credentials: never passed, and their values are redacted from everything we return. */
const CREDENTIAL_NAME = /TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE/i;
/** Vendor and CI context (endpoints, accounts, runner internals): never passed to untrusted code. */
const CONTEXT_NAME = /^(?:GITHUB|ANTHROPIC|OPENAI|AWS|AZURE|GOOGLE|GCP|NPM|CLAUDE|CODEX|ACTIONS|RUNNER)_/;

export function isSecretName(name: string): boolean {
  return CREDENTIAL_NAME.test(name) || CONTEXT_NAME.test(name);
}

/**
 * PATH/HOME/LANG-like basics from the current environment, plus `extra` (explicit, trusted by the caller).
 * Never includes a variable whose name looks like a credential, even if it sits in the allow list.
 */
export function scrubbedEnv(extra?: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSED_ENV_NAMES) {
    const value = process.env[name];
    if (value !== undefined && !isSecretName(name)) env[name] = value;
  }
  if (extra) for (const [k, v] of Object.entries(extra)) env[k] = v;
  return env;
}

/** Secret values of the parent's environment: every variable not on the output allow-list (`src/util/redact.ts`). */
export function secretValues(env: NodeJS.ProcessEnv = process.env): string[] {
  return secretsOfEnvironment(env);
}

/**
 * Replaces every parent secret, raw or encoded, with `[REDACTED]` (last line of defence: a child could read
 * /proc or a file holding one).
 */
export function redactSecrets(text: string, secrets?: readonly string[]): string {
  return (secrets ? new Redactor(secrets) : outputRedactor()).redact(text);
}
