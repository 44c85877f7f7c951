/** How the leakage gate's child sends the rows a split returned: `[id, group, ts]` per row. */
export const ROW_FIELDS = ["id", "group", "ts"] as const;

export interface RowsObservation {
  /** Always `ROW_FIELDS.join(",")`: marks the projected shape. */
  rows: string;
  train: unknown[];
  test: unknown[];
}
