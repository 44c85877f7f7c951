/** The one GitHub API client: Octokit with retries and rate-limit throttling, its log lines redacted. */
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import type { Logger } from "../model/settings.js";
import { outputRedactor } from "../util/redact.js";
import { API_RETRIES, RATE_LIMIT_RETRIES } from "./limits.js";

/** Octokit with retries on 5xx (plugin-retry) and waiting out primary/secondary rate limits (plugin-throttling). */
const GitHubOctokit = Octokit.plugin(retry, throttling);
export type GitHubClient = InstanceType<typeof GitHubOctokit>;

export interface ClientOptions {
  token: string;
  /** `GITHUB_API_URL` (https://api.github.com, a GHES URL, or a loopback URL in tests). */
  baseUrl: string;
  logger: Pick<Logger, "warn" | "debug">;
  /** Milliseconds per unit of GitHub's retry-after; tests shrink it. */
  retryAfterBaseValue?: number;
  /** Injected transport (tests); defaults to the global fetch. */
  fetch?: typeof fetch;
  /**
   * `github` (default) spaces writes ≥ 1 s and notifying writes ≥ 3 s apart, as GitHub asks of integrations;
   * `none` is for loopback tests only.
   */
  writeSpacing?: "github" | "none";
}

/** A limiter that schedules immediately, in the shape plugin-throttling calls (`group.key(id).schedule`). */
const UNSPACED = { key: () => ({ schedule: <T>(_options: unknown, fn: () => T) => Promise.resolve(fn()) }) };

/** Request options that are transport, not content: never redacted (the token travels in `headers`). */
const TRANSPORT_OPTIONS = new Set(["method", "baseUrl", "url", "headers", "request", "mediaType"]);

export function createGitHubClient(o: ClientOptions): GitHubClient {
  const base = o.retryAfterBaseValue;
  const client = new GitHubOctokit({
    auth: o.token,
    baseUrl: o.baseUrl.replace(/\/+$/, ""),
    userAgent: "skillgate",
    request: o.fetch ? { fetch: o.fetch } : undefined,
    log: {
      debug: () => {},
      info: () => {},
      warn: (m: string) => o.logger.debug(m),
      error: (m: string) => o.logger.debug(m),
    },
    retry: { retries: API_RETRIES, ...(base !== undefined ? { retryAfterBaseValue: base } : {}) },
    throttle: {
      ...(o.writeSpacing === "none" ? ({ write: UNSPACED, notifications: UNSPACED } as object) : {}),
      ...(base !== undefined ? { retryAfterBaseValue: base } : {}),
      onRateLimit: (
        retryAfter: number,
        options: { method?: string; url?: string },
        _o: unknown,
        retryCount: number,
      ) => {
        o.logger.warn(
          `GitHub rate limit on ${options.method} ${options.url}; retrying after ${retryAfter} s`,
        );
        return retryCount < RATE_LIMIT_RETRIES;
      },
      onSecondaryRateLimit: (
        retryAfter: number,
        options: { method?: string; url?: string },
        _o: unknown,
        retryCount: number,
      ) => {
        o.logger.warn(
          `GitHub secondary rate limit on ${options.method} ${options.url}; retrying after ${retryAfter} s`,
        );
        return retryCount < RATE_LIMIT_RETRIES;
      },
    },
  });
  // Whatever skillgate sends to GitHub (check runs, annotations, comments) passes the redactor first.
  const redactor = outputRedactor();
  client.hook.wrap("request", (request, options) => {
    const clean: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(options))
      clean[k] = TRANSPORT_OPTIONS.has(k) ? v : redactor.redactDeep(v);
    return request(clean as typeof options);
  });
  return client;
}

/** HTTP status of an Octokit RequestError (or undefined for network errors). */
export function httpStatus(e: unknown): number | undefined {
  const s = (e as { status?: unknown })?.status;
  return typeof s === "number" ? s : undefined;
}
