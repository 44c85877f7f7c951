/**
 * Where a SKILL.md tells the agent to read a file of its own folder, as opposed to only naming it (#43). Skills
 * name eval files all the time without reading their own: a scaffolder lists the `evals/evals.json` it creates in
 * the user's project, an auditor reports a project with no `evals/evals.json`, a README section says the skill's
 * `eval.yaml` defines one task. Only an instruction to read the file changes what the agent does with the file
 * at hand, so only that makes a trial (file withheld) differ from real use (file installed).
 *
 * A mention is such an instruction when it is a markdown link's target, when it is written under the skill's
 * own folder (`${CLAUDE_SKILL_DIR}/…`), or when the verb nearest before it in its sentence is one of reading
 * (read, see, open, check against, cat, run…) rather than one of making (create, write, generate…).
 */

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Claude Code's variable for the folder of the skill's SKILL.md. */
const SKILL_DIR = String.raw`(?:\$\{CLAUDE_SKILL_DIR\}|\$CLAUDE_SKILL_DIR)/`;

/** Verbs (and commands) that have the agent take in a file's content, in the forms an instruction uses. */
const READ =
  /\b(?:read|re-read|open|load|consult|see|check|review|study|follow|use|view|inspect|examine|compare|parse|import|look\s+(?:at|in|into|up)|refer\s+to|cat|jq|grep|source|run|execute|python3?|node|bash|sh)\b/gi;
/** Verbs of making or saying a file is there: a path after them is what the skill produces or looks for. */
const MAKE =
  /\b(?:creat(?:e|es|ed|ing)|writ(?:e|es|ing|ten)|wrote|generat(?:e|es|ed|ing)|deploy(?:s|ed|ing)?|scaffold(?:s|ed|ing)?|produc(?:e|es|ed|ing)|draft(?:s|ed|ing)?|add(?:s|ed|ing)?|sav(?:e|es|ed|ing)|emit(?:s|ted|ting)?|mak(?:e|es|ing)|made|cop(?:y|ies|ied|ying)|initiali[sz](?:e|es|ed|ing)|updat(?:e|es|ed|ing)|edit(?:s|ed|ing)?|append(?:s|ed|ing)?|populat(?:e|es|ed|ing)|fill(?:s|ed|ing)?|touch|mkdir|ls|test\s+-[ef])\b/gi;

/** A line that starts a block of its own (a list item, heading, quote, table row): a sentence does not cross it. */
const BLOCK_START = /^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|>|\|)/;
const FENCE = /^\s*(?:```|~~~)/;

/** The text of the sentence before `at` (for prose, up to four wrapped lines back; in a code block, the line). */
function sentenceBefore(raw: string, at: number): string {
  const lines = raw.slice(0, at).split("\n");
  const inCode = lines.slice(0, -1).filter((l) => FENCE.test(l)).length % 2 === 1;
  const span: string[] = [lines[lines.length - 1]!];
  for (let i = lines.length - 2; !inCode && i >= 0 && span.length < 4; i--) {
    if (BLOCK_START.test(span[0]!)) break;
    const line = lines[i]!;
    if (line.trim() === "" || FENCE.test(line)) break;
    span.unshift(line);
  }
  const text = span.join(" ");
  const end = [...text.matchAll(/[.!?](?:\s|$)/g)].pop();
  return end ? text.slice(end.index + 1) : text;
}

const lastIndex = (re: RegExp, text: string) => [...text.matchAll(re)].pop()?.index ?? -1;

/** Whether the verb nearest before the mention at `at` is one of reading. */
function readBefore(raw: string, at: number): boolean {
  const sentence = sentenceBefore(raw, at);
  return lastIndex(READ, sentence) > lastIndex(MAKE, sentence);
}

/** Every place SKILL.md names `rel` as a path (alone or after `./`, not as the tail of a longer path). */
export function mentionsOf(raw: string, rel: string): number[] {
  const re = new RegExp(`(?<![\\w/.-])(?:\\./)?${literal(rel)}(?![\\w/-])`, "g");
  return [...raw.matchAll(re)].map((m) => m.index);
}

/** The first place SKILL.md tells the agent to read `rel` of its own folder, if any. */
export function readInstructionTo(raw: string, rel: string): number | undefined {
  const underSkill = new RegExp(`${SKILL_DIR}(?:\\./)?${literal(rel)}(?![\\w/-])`).exec(raw)?.index;
  const link = (at: number) => /(?:\]\(|\]:\s*)$/.test(raw.slice(Math.max(0, at - 4), at));
  const read = mentionsOf(raw, rel).find((at) => link(at) || readBefore(raw, at));
  const found = [underSkill, read].filter((x) => x !== undefined);
  return found.length > 0 ? Math.min(...found) : undefined;
}
