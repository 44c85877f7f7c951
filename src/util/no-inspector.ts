/**
 * skillgate cannot be opened from inside: Node opens its inspector on 127.0.0.1:9229 when its process receives
 * SIGUSR1, and whoever connects then runs code in skillgate with every secret it holds. Untrusted code runs
 * under another uid and in its own pid namespace (it cannot signal skillgate at all); this closes the door for
 * the weaker isolation levels too.
 *
 * A SIGUSR1 listener replaces Node's default action: measured on Node 20.20 and 24.22, a process with one does
 * not open the inspector on SIGUSR1. `--disable-sigusr1` does the same from the command line, but only Node 22.14+
 * and 23.7+ know it (Node 20 refuses to start with it), and an entry point cannot choose its own flags (the
 * Action's runtime runs `node dist/index.js`): processes skillgate starts itself get it where Node has it.
 *
 * Imported first by the entry points (ESM evaluates imports in order), so the listener is there before any
 * other module runs.
 */
process.on("SIGUSR1", () => {
  // Ignored on purpose: no inspector, no other action.
});

/** `--disable-sigusr1` when this Node knows the flag, for the Node processes skillgate starts. */
export function disableSigusr1Flags(): string[] {
  return process.allowedNodeEnvironmentFlags.has("--disable-sigusr1") ? ["--disable-sigusr1"] : [];
}
