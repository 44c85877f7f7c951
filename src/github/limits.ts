/**
 * GitHub's size and count limits skillgate respects, in one place. Sources: the project brief's anchors § GitHub
 * and GitHub's OpenAPI description (`test/fixtures/github-openapi-ops.json`, which the loopback API enforces).
 * Respecting them is why a 422 never happens.
 */

/** Check run `output.annotations`: at most 50 per create/update request; updates append (ANCHORS § GitHub). */
export const MAX_ANNOTATIONS_PER_REQUEST = 50;

/** Check run `output.summary` and `output.text`: at most 65,535 characters, 422 beyond (ANCHORS § GitHub). */
export const MAX_CHECK_OUTPUT_CHARS = 65_535;

/** Check run annotation `title`: at most 255 characters (ANCHORS § GitHub). */
export const MAX_ANNOTATION_TITLE_CHARS = 255;

/** Check run annotation `message` and `raw_details`: GitHub documents 64 KB each; we stay well below. */
export const MAX_ANNOTATION_MESSAGE_CHARS = 4_000;

/**
 * Our own cap on annotations per check run: each 50 costs one request against the 1,000 requests/hour/repository
 * `GITHUB_TOKEN` budget (ANCHORS § GitHub); the rest are counted in the summary.
 */
export const MAX_CHECK_ANNOTATIONS = 500;

/** Workflow-command annotations shown per step and level (`::error`, `::warning`, `::notice`) (ANCHORS § GitHub). */
export const MAX_WORKFLOW_ANNOTATIONS_PER_LEVEL = 10;

/** Workflow-command annotations shown per job, all levels (ANCHORS § GitHub). */
export const MAX_WORKFLOW_ANNOTATIONS_PER_JOB = 50;

/** Job summary: 1 MiB per step (ANCHORS § GitHub). Counted in UTF-8 bytes. */
export const MAX_JOB_SUMMARY_BYTES = 1024 * 1024;

/** Issue comment body: at most 65,536 characters (GitHub answers 422 beyond). */
export const MAX_COMMENT_CHARS = 65_536;

/** `pulls.listFiles` returns at most 3,000 files, 100 per page (ANCHORS § GitHub). */
export const MAX_PULL_FILES = 3_000;
export const PULL_FILES_PER_PAGE = 100;

/** Retries for 5xx (plugin-retry) and for primary/secondary rate limits (plugin-throttling). */
export const API_RETRIES = 3;
export const RATE_LIMIT_RETRIES = 2;
