/**
 * Where a SKILL.md tells the agent to read a file of its own folder (src/detect/read-instructions.ts): the
 * sentence before a mention decides, with the nearest verb winning; a list item, a heading, a blank line and a
 * code line each start a sentence of their own.
 */
import { describe, expect, it } from "vitest";
import { readInstructionTo } from "../../src/detect/read-instructions.js";

const at = (text: string, rel = "evals/evals.json") => {
  const i = readInstructionTo(text, rel);
  return i === undefined ? undefined : text.slice(i, i + rel.length + 2);
};

describe("readInstructionTo", () => {
  it("a read verb before the mention in its sentence is an instruction; a making verb nearer to it is not", () => {
    expect(at("Read evals/evals.json first.")).toBe("evals/evals.json f");
    expect(at("Read the notes, then write evals/evals.json.")).toBeUndefined();
    expect(at("Write the prompts. Then read evals/evals.json back.")).toBe("evals/evals.json b");
  });

  it("a sentence ends at a full stop, a blank line or a list item; wrapped prose lines join", () => {
    expect(at("Read the notes.\n`evals/evals.json` holds prompts.")).toBeUndefined();
    expect(at("- read the notes\n- `evals/evals.json` holds prompts")).toBeUndefined();
    expect(at("Before answering, read the\nprompts in evals/evals.json.")).toBe("evals/evals.json.");
    expect(at("Open it.\n\nevals/evals.json is the list.")).toBeUndefined();
  });

  it("in a code block each line is its own command", () => {
    expect(at("```sh\ncat notes.md\nls evals/evals.json\n```")).toBeUndefined();
    expect(at("```sh\nls notes.md\ncat evals/evals.json\n```")).toBe("evals/evals.json\n`");
  });

  it("a third-person verb is a description, not an instruction", () => {
    expect(at("score.py reads the target and evals.json", "evals.json")).toBeUndefined();
  });

  it("a link target and a path under ${CLAUDE_SKILL_DIR}/ are instructions whatever the verb", () => {
    expect(at("Examples: [prompts](./evals/evals.json).")).toBe("./evals/evals.json");
    expect(at("Write $CLAUDE_SKILL_DIR/evals/evals.json.")).toBe("$CLAUDE_SKILL_DIR/");
    expect(at("Name it evals/evals.json.", "evals/other.json")).toBeUndefined();
  });
});
