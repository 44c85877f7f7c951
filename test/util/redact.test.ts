import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  encodingsOf,
  isRedactedName,
  REDACTED,
  Redactor,
  secretsOfEnvironment,
} from "../../src/util/redact.js";

const TOKEN = "ghs_16C7e42F292c6912E7710c838347Ae178B4a";
const DB = "postgres://app:hunter2hunter2@db.internal:5432/prod";

describe("which values are secrets", () => {
  it("redacts by value every variable not on the allow-list, whatever its name", () => {
    const env = {
      GITHUB_TOKEN: TOKEN,
      "INPUT_GITHUB-TOKEN": TOKEN,
      DATABASE_URL: DB,
      SLACK_HOOK: "https://hooks.slack.example/services/T000/B000/XXXXXXXXXXXXXXXX",
      CERT_PATH: "/etc/ssl/private/service-key.pem",
      GITHUB_REPOSITORY: "octo-org/skills-repo",
      GITHUB_SHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
      "INPUT_CHECK-NAME": "skillgate-check",
      RUNNER_TEMP: "/home/runner/work/_temp",
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: "/home/runner",
      SSL_CERT_DIR: "/etc/ssl/certs",
      SHORT: "true",
    };
    expect(secretsOfEnvironment(env).sort()).toEqual([TOKEN, DB, env.SLACK_HOOK, env.CERT_PATH].sort());
    expect(isRedactedName("GITHUB_TOKEN")).toBe(true);
    expect(isRedactedName("ACTIONS_RUNTIME_TOKEN")).toBe(true);
    expect(isRedactedName("ACTIONS_CACHE_URL")).toBe(true);
    expect(isRedactedName("GITHUB_REF")).toBe(false);
    // a trust store's path is no secret: `rm -rf /etc/ssl` must read as such in a risky-action root
    expect(isRedactedName("SSL_CERT_DIR")).toBe(false);
  });
});

describe("every form a secret can take in output", () => {
  const r = new Redactor([TOKEN, DB]);
  const cases: Record<string, string> = {
    raw: `token=${TOKEN};`,
    json: JSON.stringify({ url: DB }),
    url: `?next=${encodeURIComponent(DB)}&x=1`,
    form: `q=${encodeURIComponent(`a ${DB}`).replace(/%20/g, "+")}`,
    hex: Buffer.from(TOKEN).toString("hex"),
    HEX: Buffer.from(TOKEN).toString("hex").toUpperCase(),
    base64: Buffer.from(TOKEN).toString("base64"),
    "base64 after 1 byte": Buffer.from(`x${TOKEN}`).toString("base64"),
    "base64 after 2 bytes": Buffer.from(`xy${TOKEN}`).toString("base64"),
    "base64url inside a larger blob": Buffer.from(`Authorization: Bearer ${TOKEN}\n`).toString("base64url"),
  };
  for (const [name, text] of Object.entries(cases))
    it(`${name}: no run of the secret's encoding survives`, () => {
      const out = r.redact(text);
      expect(out).toContain(REDACTED);
      for (const form of encodingsOf(TOKEN).concat(encodingsOf(DB))) expect(out).not.toContain(form);
    });

  it("what remains of a base64-encoded secret among any bytes holds no two of its 3-byte groups", () => {
    const cores = [0, 1, 2].map((k) => Buffer.from(TOKEN).subarray(k).toString("base64"));
    fc.assert(
      fc.property(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), (a, b) => {
        const out = r.redact(Buffer.from(`${a}${TOKEN}${b}`).toString("base64"));
        expect(out).toContain(REDACTED);
        for (const core of cores)
          for (let i = 0; i + 8 <= core.length; i += 4) expect(out).not.toContain(core.slice(i, i + 8));
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it("leaves text without secrets unchanged, and redacts keys as well as values in a deep copy", () => {
    const report = { verdict: "fail", skills: [{ name: "split-cents", output: "334 333 333" }] };
    expect(r.redactDeep(report)).toBe(report);
    const leaked = { errors: [`agent said ${TOKEN}`], env: { [DB]: 1 } };
    const clean = r.redactDeep(leaked);
    expect(JSON.stringify(clean)).not.toContain(TOKEN);
    expect(JSON.stringify(clean)).not.toContain(DB);
    expect(leaked.errors[0]).toContain(TOKEN); // the original is not mutated
  });

  it("a secret with regex metacharacters is matched literally", () => {
    const odd = "p@ss(w)rd.*+?[x]{2}|^$\\";
    const out = new Redactor([odd]).redact(`before ${odd} after p@ssXwXrd`);
    expect(out).toBe(`before ${REDACTED} after p@ssXwXrd`);
  });

  it("text cut by a size cap loses the beginning of a secret it ends with, never more", () => {
    expect(r.redactCut(`out: ${TOKEN.slice(0, 20)}`)).toBe(`out: ${REDACTED}`);
    expect(r.redactCut(`out: ${TOKEN.slice(0, 7)}`)).toBe(`out: ${TOKEN.slice(0, 7)}`);
    expect(r.redactCut(`a ${TOKEN} b ${DB.slice(0, 30)}`)).toBe(`a ${REDACTED} b ${REDACTED}`);
    expect(r.redactCut("nothing to see here")).toBe("nothing to see here");
  });
});

describe("escaped forms of random secrets (#27 item 4)", () => {
  const percent = (s: string, upper: boolean) =>
    [...Buffer.from(s)]
      .map((b) => `%${b.toString(16).padStart(2, "0")}`)
      .map((e) => (upper ? e.toUpperCase() : e))
      .join("");
  const unicode = (s: string, upper: boolean) =>
    [...Array(s.length).keys()]
      .map((i) => s.charCodeAt(i).toString(16).padStart(4, "0"))
      .map((h) => `\\u${upper ? h.toUpperCase() : h}`)
      .join("");
  /** base64 of `prefix + secret + suffix`, broken every `width` characters with `sep` and indented. */
  const wrapped = (
    bytes: Buffer,
    alphabet: "base64" | "base64url",
    width: number,
    sep: string,
    indent: string,
  ) => {
    const flat = bytes.toString(alphabet);
    const lines: string[] = [];
    for (let i = 0; i < flat.length; i += width) lines.push(flat.slice(i, i + width));
    return lines.join(`${sep}${indent}`);
  };
  const secretArb = fc
    .string({ minLength: 8, maxLength: 48, unit: "grapheme" })
    .filter((s) => s.trim().length >= 8);
  const noise = fc.string({ maxLength: 12 });

  it("every byte %XX in either case, and every character as \\uXXXX in either case, is redacted", () => {
    fc.assert(
      fc.property(secretArb, noise, noise, fc.boolean(), (secret, a, b, upper) => {
        const r = new Redactor([secret]);
        for (const form of [percent(secret, upper), unicode(secret, upper)]) {
          const out = r.redact(`${a}${form}${b}`);
          expect(out).toContain(REDACTED);
          expect(out).not.toContain(form);
        }
      }),
      { seed: 27, numRuns: 300 },
    );
  });

  it("base64 and base64url wrapped at MIME 76, PEM 64 or any width, raw or JSON-escaped line ends, leave no core", () => {
    fc.assert(
      fc.property(
        secretArb,
        fc.string({ maxLength: 5 }),
        fc.string({ maxLength: 5 }),
        fc.constantFrom<"base64" | "base64url">("base64", "base64url"),
        fc.oneof(fc.constant(76), fc.constant(64), fc.integer({ min: 4, max: 90 })),
        fc.constantFrom("\n", "\r\n", "\\n", "\\r\\n"),
        fc.constantFrom("", "  ", "\t"),
        (secret, pre, post, alphabet, width, sep, indent) => {
          const r = new Redactor([secret]);
          const bytes = Buffer.from(`${pre}${secret}${post}`);
          const text = `-----BEGIN DATA-----${sep}${wrapped(bytes, alphabet, width, sep, indent)}${sep}-----END DATA-----`;
          const out = r.redact(text);
          expect(out).toContain(REDACTED);
          // Joined again, what is left holds no two consecutive 3-byte groups of the secret at any offset.
          const joined = out.replace(/(?:\r?\n|\\r\\n|\\n)[ \t]*/g, "");
          const body = Buffer.from(secret);
          for (let k = 0; k < 3; k++) {
            const core = body.subarray(k).toString(alphabet);
            for (let i = 0; i + 8 <= core.length - 4; i += 4)
              expect(joined).not.toContain(core.slice(i, i + 8));
          }
        },
      ),
      { seed: 2027, numRuns: 400 },
    );
  });

  it("ordinary wrapped text and code keep their line breaks and words", () => {
    const r = new Redactor(["ghs_Zq8rT2vLm9XwK4pN7bYc3dFh6jGs1aEe0uRi"]);
    const prose =
      "Split the bill\nwithout losing\n  a cent.\\nThen encoding\\nbase64 of nothing secret\r\nhere";
    expect(r.redact(prose)).toBe(prose);
  });
});
