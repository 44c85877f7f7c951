import type { ActionIO } from "../../src/github/io.js";
import type { CommandAnnotation } from "../../src/github/workflow-commands.js";

/** An ActionIO that records instead of talking to a runner; inputs default like action.yml does. */
export function recordingIO(inputs: Record<string, string> = {}) {
  const rec = {
    outputs: {} as Record<string, string>,
    summary: [] as string[],
    annotations: [] as CommandAnnotation[],
    log: [] as string[],
    state: {} as Record<string, string>,
  };
  const io: ActionIO = {
    getInput: (name) => (inputs[name] ?? "").trim(),
    setOutput: (name, value) => {
      rec.outputs[name] = value;
    },
    appendSummary: async (md) => {
      rec.summary.push(md);
    },
    annotate: (a) => {
      rec.annotations.push(a);
    },
    info: (line) => {
      rec.log.push(line);
    },
    debug: () => {},
    group: (_name, fn) => fn(),
    saveState: (name, value) => {
      rec.state[name] = value;
    },
    getState: (name) => rec.state[name] ?? "",
  };
  return { io, rec };
}
