import type { Case, SuiteFormat, SuiteMeta, TriggerSet } from "../../model/index.js";
import type { SuiteReader } from "../suite-context.js";

/** What the loaders build together; several formats may contribute to one suite folder. */
export interface SuiteDraft {
  /** Folder of the skill the suite is for (`.` at the repository root). */
  skillDir: string;
  meta?: SuiteMeta;
  cases: Case[];
  trigger?: TriggerSet;
  formats: SuiteFormat[];
}

/** One on-disk eval format. Registered in `formats/index.ts`; adding a format is adding a file. */
export interface SuiteFormatLoader {
  format: SuiteFormat;
  /** Read only from folders placed for this format (a plugin's own `evals/`), never by convention. */
  onlyWhereNamed?: boolean;
  /** Whether this suite folder holds files of this format. */
  detect(reader: SuiteReader, root: string): boolean;
  load(reader: SuiteReader, root: string, draft: SuiteDraft): void;
}
