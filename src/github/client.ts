import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import type { Logger } from "../model/settings.js";
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

export function createGitHubClient(o: ClientOptions): GitHubClient {
  const base = o.retryAfterBaseValue;
  return new GitHubOctokit({
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
}

/** HTTP status of an Octokit RequestError (or undefined for network errors). */
export function httpStatus(e: unknown): number | undefined {
  const s = (e as { status?: unknown })?.status;
  return typeof s === "number" ? s : undefined;
}
