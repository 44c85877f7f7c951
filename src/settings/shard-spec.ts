/** A shard of a job matrix as the operator names it (`--shard i/n`, the `shard` input), checked where it is read. */
import { UsageError } from "../model/diagnostics.js";

export interface ShardSpec {
  /** 1-based. */
  index: number;
  total: number;
}

/** Refuses absurd matrices: every shard costs a runner and at least one API request. */
export const MAX_SHARDS = 256;

/** Parses `i/n` (1-based, e.g. `2/4`); throws an `InputError` naming the bad value. */
export function parseShard(text: string, source = "shard"): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new UsageError(`${source}: expected "i/n" (e.g. "2/4"), got ${JSON.stringify(text)}`);
  const spec = { index: Number(m[1]), total: Number(m[2]) };
  validateShard(spec.index, spec.total, source);
  return spec;
}

export function validateShard(index: number, total: number, source: string): void {
  if (!Number.isInteger(total) || total < 1 || total > MAX_SHARDS)
    throw new UsageError(`${source}: shard total must be an integer from 1 to ${MAX_SHARDS}, got ${total}`);
  if (!Number.isInteger(index) || index < 1 || index > total)
    throw new UsageError(`${source}: shard index must be an integer from 1 to ${total}, got ${index}`);
}
