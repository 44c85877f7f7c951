/** Reading gate options (from `--options JSON` or a `gate` assertion); a bad option is a located usage error. */

export class GateOptionError extends Error {}

export function enumOption<T extends string>(
  options: Record<string, unknown>,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const v = options[name];
  if (v === undefined) return fallback;
  if (typeof v === "string" && (allowed as readonly string[]).includes(v)) return v as T;
  throw new GateOptionError(
    `option '${name}' must be one of ${allowed.join(", ")} (got ${JSON.stringify(v)})`,
  );
}

/** How invalid input must be refused: `throw` (default) or, with `throw-or-null`, also a `null` result. */
export type InvalidPolicy = "throw" | "throw-or-null";

export function invalidPolicy(options: Record<string, unknown>): InvalidPolicy {
  return enumOption(options, "invalid", ["throw", "throw-or-null"] as const, "throw");
}
