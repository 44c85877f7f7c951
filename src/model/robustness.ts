/** A skill's robustness in its report: the eight dimensions of the coding-agent robustness taxonomy, scored. */
/** The eight dimensions of the coding-agent robustness taxonomy (seeds/001). */
export type RobustnessDimensionId =
  | "adversarial-correctness"
  | "spec-underspecification"
  | "consistency-under-reformulation"
  | "error-recovery"
  | "security-awareness"
  | "hallucination"
  | "graceful-degradation"
  | "refusal-calibration";

export type RobustnessTier = "robust" | "adequate" | "fragile" | "unreliable";

/** The grade of a dimension's score in the report template's table: A ≥ 90, B ≥ 80, C ≥ 70, D ≥ 60, F below. */
export type RobustnessGrade = "A" | "B" | "C" | "D" | "F";

export interface RobustnessDimension {
  id: RobustnessDimensionId;
  name: string;
  /** False when nothing skillgate ran measures it: then there is no score, never an invented one. */
  measured: boolean;
  /** Part of this audit (meta.json `robustness.dimensions`, default all eight). */
  selected?: boolean;
  /** 0–100 when measured, by the taxonomy's formula for the dimension. */
  score?: number;
  grade?: RobustnessGrade;
  /** The formula's numerator and denominator (weighted for error recovery, tier points for degradation). */
  passed?: number;
  total?: number;
  /** Probes (trials of cases made for the dimension, pairs for reformulation) the score is over. */
  probes?: number;
  /** What was counted, or why it is not measured. */
  basis: string;
  /** Secondary figures of the dimension (precision and recall of refusals, unprompted warning rate, regressions …). */
  figures?: Record<string, number>;
  /** Fewer probes than the taxonomy's minimum (5 per dimension; 15+ for a reliable signal). */
  warning?: string;
}

/** One failed probe, as the report template's examples show it. */
export interface RobustnessExample {
  caseId: string;
  trial: number;
  prompt: string;
  output: string;
  /** What failed: the failing check's message. */
  failure: string;
}

export interface RobustnessFailurePattern {
  /** `<dimension>: <check>`: the same check failing on a dimension's probes. */
  pattern: string;
  dimension: RobustnessDimensionId;
  checkId: string;
  /** Failed probe trials. */
  count: number;
  example: RobustnessExample;
}

export interface RobustnessSummary {
  dimensions: RobustnessDimension[];
  /** The dimensions this audit covers (meta.json `robustness.dimensions`, default all eight). */
  selected: RobustnessDimensionId[];
  /** Weighted mean of the selected dimensions; only when every selected one was measured. */
  composite?: number;
  tier?: RobustnessTier;
  /** When a selected dimension is not measured: no composite, "partial, N of M". */
  partial?: { measured: number; of: number };
  /** "Robust", "Adequate", …, or "partial, 5 of 8". */
  label: string;
  /** Dimensions scoring below 50, with failed probes as examples. */
  criticalFailures: { dimension: RobustnessDimensionId; score: number; examples: RobustnessExample[] }[];
  /** The three most frequent failures on the probes, each with an example probe and output. */
  topFailurePatterns: RobustnessFailurePattern[];
}
