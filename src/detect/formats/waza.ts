import { posix } from "node:path";
import type { TriggerQuery } from "../../model/index.js";
import { WAZA_PROMPT_KEYS, WAZA_TRIGGER_KEYS, wazaTriggerSchema } from "../schemas.js";
import type { SuiteReader } from "../suite-context.js";
import { warnUnknownKeys } from "./not-graded.js";
import { addTriggers } from "./skill-creator.js";
import type { SuiteDraft, SuiteFormatLoader } from "./types.js";
import { loadWazaEval, WAZA_EVAL_FILES } from "./waza-eval.js";

const FILES = ["trigger_tests.yaml", "trigger_tests.yml"];

/** microsoft/waza: `trigger_tests.yaml` (`confidence: medium` weighs 0.5 as waza does) and `eval.yaml` tasks. */
export const wazaFormat: SuiteFormatLoader = {
  format: "waza",
  detect(reader, root) {
    return [...FILES, ...WAZA_EVAL_FILES].some((f) => reader.exists(posix.join(root, f)));
  },
  load(reader, root, draft) {
    loadWazaEval(reader, root, draft);
    for (const name of FILES) {
      const file = posix.join(root, name);
      if (!reader.exists(file)) continue;
      reader.withinPart({ part: "trigger" }, () => loadTriggerTests(reader, file, draft));
    }
  },
};

function loadTriggerTests(reader: SuiteReader, file: string, draft: SuiteDraft): void {
  const src = reader.read(file);
  if (!src || !reader.validate(wazaTriggerSchema, src.value, src, [], "suite/waza-trigger")) return;
  warnUnknownKeys(reader, src, src.value, [], WAZA_TRIGGER_KEYS, "is not a key of waza's trigger_tests.yaml");
  const v = src.value;
  const warned = new Set<string>();
  const toQueries = (key: "should_trigger_prompts" | "should_not_trigger_prompts"): TriggerQuery[] =>
    (v[key] ?? []).map((q, i) => {
      const loc = src.locate([key, i]);
      if (typeof q === "string") return { prompt: q, weight: 1, loc };
      warnUnknownKeys(
        reader,
        src,
        q,
        [key, i],
        WAZA_PROMPT_KEYS,
        "is not read by waza's trigger tests",
        warned,
      );
      return { prompt: q.prompt, reason: q.reason, weight: q.confidence === "medium" ? 0.5 : 1, loc };
    });
  addTriggers(
    draft,
    toQueries("should_trigger_prompts"),
    toQueries("should_not_trigger_prompts"),
    src.locate([]),
  );
}
