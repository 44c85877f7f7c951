/** `::error file=…::` workflow commands: which annotations fit the runner's display caps. */
import type { CheckAnnotation } from "./annotations.js";
import { MAX_WORKFLOW_ANNOTATIONS_PER_JOB, MAX_WORKFLOW_ANNOTATIONS_PER_LEVEL } from "./limits.js";

/** A workflow-command annotation (`::error file=…,line=…,title=…::message`), as `@actions/core` takes it. */
export interface CommandAnnotation {
  level: "error" | "warning" | "notice";
  message: string;
  file: string;
  line: number;
  title: string;
}

const LEVEL: Record<CheckAnnotation["annotation_level"], CommandAnnotation["level"]> = {
  failure: "error",
  warning: "warning",
  notice: "notice",
};

/**
 * The fallback when check runs cannot be written: the first annotations of each level that GitHub will
 * display (10 per level per step, 50 per job), in the given (importance) order. The rest go to the log.
 */
export function planCommandAnnotations(annotations: CheckAnnotation[]): {
  shown: CommandAnnotation[];
  rest: CheckAnnotation[];
} {
  const perLevel = { error: 0, warning: 0, notice: 0 };
  const shown: CommandAnnotation[] = [];
  const rest: CheckAnnotation[] = [];
  for (const a of annotations) {
    const level = LEVEL[a.annotation_level];
    if (
      perLevel[level] < MAX_WORKFLOW_ANNOTATIONS_PER_LEVEL &&
      shown.length < MAX_WORKFLOW_ANNOTATIONS_PER_JOB
    ) {
      perLevel[level]++;
      shown.push({ level, message: a.message, file: a.path, line: a.start_line, title: a.title });
    } else rest.push(a);
  }
  return { shown, rest };
}
