/**
 * The one ranking of "loosened or tightened" that suites (`verdict/weakening.ts`, each assertion type's comparator
 * in `grade/assertions/`) and policies (`settings/policy-diff.ts`) share. A change is `loosened` when the head may
 * accept what the base refused, `tightened` when it provably accepts only what the base accepted, `changed` when
 * it differs without either being provable (the caller decides whether that blocks), `same` otherwise.
 */

export type Direction = "loosened" | "tightened";
export type Rank = "same" | Direction | "changed";

/** The rank of the change read the other way (head to base). */
export function inverse(rank: Rank): Rank {
  return rank === "loosened" ? "tightened" : rank === "tightened" ? "loosened" : rank;
}

/** Several changes to one thing: `same` when none, their one direction when they agree, else `changed`. */
export function combine(ranks: readonly Rank[]): Rank {
  const moved = [...new Set(ranks.filter((r) => r !== "same"))];
  return moved.length === 0 ? "same" : moved.length === 1 ? moved[0]! : "changed";
}

/** JSON with every object's keys sorted at any depth: equal values, equal text. */
export function canonicalJson(x: unknown): string {
  return JSON.stringify(x ?? null, Object.keys(flatKeys(x)).sort());
}

/** Every key at any depth, so `canonicalJson` sorts nested objects too. */
function flatKeys(x: unknown, into: Record<string, true> = {}): Record<string, true> {
  if (x && typeof x === "object")
    for (const [k, v] of Object.entries(x)) {
      into[k] = true;
      flatKeys(v, into);
    }
  return into;
}

export const sameJson = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);

/**
 * A minimum (a threshold, a number of trials): lower is looser. `dflt` stands for an unset side; a minimum set
 * where there was none tightens, one removed (with no default) loosens; the same figure written differently
 * (unset beside the default) is `changed`.
 */
export function rankMinimum(base: number | undefined, head: number | undefined, dflt?: number): Rank {
  if (sameJson(base, head)) return "same";
  const b = base ?? dflt;
  const h = head ?? dflt;
  if (b === undefined) return "tightened";
  if (h === undefined || h < b) return "loosened";
  return h > b ? "tightened" : "changed";
}

/** A maximum (a significance level α): higher is looser. */
export function rankMaximum(base: number | undefined, head: number | undefined, dflt: number): Rank {
  return inverse(rankMinimum(base, head, dflt));
}

/**
 * A choice where one value is the strict one (`fail` blocks, `requireSuite: true`, the `strict` profile): moving
 * to it tightens, away from it loosens, between two others is `changed`; `dflt` stands for an unset side.
 */
export function rankChoice<T>(base: T | undefined, head: T | undefined, dflt: T, strict: T): Rank {
  if (sameJson(base, head)) return "same";
  const b = base ?? dflt;
  const h = head ?? dflt;
  if (b === h) return "changed";
  return h === strict ? "tightened" : b === strict ? "loosened" : "changed";
}

/** Entries of a list compared as a set: what the head added and what it removed. */
export function setChange<T>(base: readonly T[], head: readonly T[]): { added: T[]; removed: T[] } {
  const before = new Set(base);
  const after = new Set(head);
  return {
    added: [...after].filter((x) => !before.has(x)),
    removed: [...before].filter((x) => !after.has(x)),
  };
}

/** An allow-list (hosts, commands, forwarded variables): one more entry loosens, one fewer tightens. */
export function rankAllowList<T>(base: readonly T[], head: readonly T[]): Rank {
  const { added, removed } = setChange(base, head);
  return added.length ? "loosened" : removed.length ? "tightened" : "same";
}
