/**
 * Appends each list to `target` in place. `target.push(...list)` passes every item as an argument, and a list of
 * ~120,000 (the diagnostics of a 60,000-skill catalogue) overflows the stack.
 */
export function appendAll<T>(target: T[], ...lists: readonly (readonly T[])[]): T[] {
  for (const list of lists) for (const item of list) target.push(item);
  return target;
}
