/** How a thrown value (or a rejection's reason) is said in a gate's finding, whatever it is. */
export function describe(err: unknown): string {
  try {
    if (err instanceof Error) return `${err.name}: ${err.message}`;
    return String(err);
  } catch {
    return "an unprintable value";
  }
}
