/**
 * Recorded usage per adapter identity and trial mode: what a forecast prices agent calls with. Kept beside the
 * trial cache (outside the checkout; it travels with the Actions cache), updated after each run with the live
 * trials it ran. It only informs the forecast: the run's budget is enforced on what trials actually spend.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TrialMode, TrialRecord } from "../model/index.js";
import type { ModeUsage, RecordedUsage } from "../plan/forecast.js";

const USAGE_LEDGER_FILE = "usage-v1.json";

type Ledger = Record<string, RecordedUsage>;

async function readLedger(dir: string): Promise<Ledger> {
  try {
    const parsed = JSON.parse(await readFile(join(dir, USAGE_LEDGER_FILE), "utf8")) as unknown;
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Ledger) : {};
  } catch {
    return {};
  }
}

const finite = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x) && x >= 0;

/** The usage recorded for `identity` (empty when none, or when the file is unreadable or malformed). */
export async function readRecordedUsage(dir: string, identity: string): Promise<RecordedUsage> {
  const entry = (await readLedger(dir))[identity];
  const out: RecordedUsage = {};
  for (const mode of ["skill", "baseline", "trigger"] as const) {
    const u = entry?.[mode];
    if (
      u &&
      finite(u.trials) &&
      u.trials > 0 &&
      finite(u.usd) &&
      finite(u.inputTokens) &&
      finite(u.outputTokens)
    )
      out[mode] = u;
  }
  return out;
}

/** Adds the live (not cached, not errored) trials of this run to the ledger of `identity`. */
export async function recordUsage(
  dir: string,
  identity: string,
  records: readonly TrialRecord[],
): Promise<void> {
  const live = records.filter((r) => !r.cached && !r.error);
  if (live.length === 0) return;
  const ledger = await readLedger(dir);
  const mine: RecordedUsage = { ...(await readRecordedUsage(dir, identity)) };
  for (const r of live) {
    const m: ModeUsage = mine[r.mode as TrialMode] ?? { trials: 0, usd: 0, inputTokens: 0, outputTokens: 0 };
    mine[r.mode] = {
      trials: m.trials + 1,
      usd: m.usd + r.usage.costUsd,
      inputTokens: m.inputTokens + r.usage.inputTokens,
      outputTokens: m.outputTokens + r.usage.outputTokens,
    };
  }
  ledger[identity] = mine;
  await mkdir(dir, { recursive: true });
  const path = join(dir, USAGE_LEDGER_FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(ledger));
  await rename(tmp, path);
}
