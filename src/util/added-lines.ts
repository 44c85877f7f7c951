/**
 * The lines a change adds to a text, by content: a line of `after` counts as added when `before` holds fewer
 * lines of that text than `after` does up to it. Moving or reordering lines adds nothing; a line edited in place
 * is added. Linear in the size of both texts (a file of 100,000 blank lines costs one map entry), where a
 * shortest-edit diff would be quadratic on a hostile file.
 */
export interface AddedLine {
  /** 1-based line number in `after`. */
  line: number;
  text: string;
}

export function addedLines(before: string | undefined, after: string): AddedLine[] {
  const left = new Map<string, number>();
  for (const l of (before ?? "").split("\n")) left.set(l, (left.get(l) ?? 0) + 1);
  const out: AddedLine[] = [];
  const lines = after.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const n = left.get(text) ?? 0;
    if (n > 0) left.set(text, n - 1);
    else out.push({ line: i + 1, text });
  }
  return out;
}
