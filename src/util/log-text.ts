/**
 * Text bound for a log that the Actions runner reads: the Action's log lines and the CLI's terminal output
 * (a workflow step's output is read the same way). The runner splits what a step prints on `\n`, `\r` and
 * `\r\n`; a line whose first non-blank characters are `::` is a workflow command (`::error::`, `::add-mask::`,
 * `::stop-commands::` …), and `##[command]` anywhere in a line is one of the legacy form. Folder names, suite
 * text and agent answers reach the log inside skillgate's messages, and may hold line breaks: here every control
 * character but the line feed and the tab is written as an escape, and every line that the runner would take as
 * a command is defused by one backslash. skillgate's own commands are issued by `@actions/core`, never through this.
 */

/** C0 and C1 controls (line feed and tab kept), line/paragraph separators, and bidirectional overrides. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, with terminal colour sequences (SGR) matched whole so they can be kept. */
const CONTROL_OR_COLOUR =
  /\u001b\[[0-9;]*m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `\r`, `\u001b` …: the escapes JSON has, so JSON printed by the CLI (`merge`) still parses to the same value. */
function escapeControl(c: string): string {
  return c === "\r" ? "\\r" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * One line the runner will read: no `::` at its start (after blanks, which the runner trims; JSON never has a
 * line starting so), no `##[` (written `##\u005b`, which a JSON string reads back as `##[`).
 */
function defuseLine(line: string): string {
  return line.replace(/^(\s*):(?=:)/, "$1\\:").replace(/##\[/g, "##\\u005b");
}

/**
 * `text` safe to print where the runner reads it. `keepColour`: terminal colour sequences (which skillgate adds
 * itself on a terminal, never under Actions) are kept; any other escape is shown as text.
 */
export function logSafe(text: string, opts: { keepColour?: boolean } = {}): string {
  const flat = text.replace(/\r\n/g, "\n");
  const shown = opts.keepColour
    ? flat.replace(CONTROL_OR_COLOUR, (m) => (m.length > 1 ? m : escapeControl(m)))
    : flat.replace(CONTROL, escapeControl);
  return shown.split("\n").map(defuseLine).join("\n");
}
