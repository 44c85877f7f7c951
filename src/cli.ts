#!/usr/bin/env node
// First: no inspector on SIGUSR1 (see no-inspector.ts).
import "./util/no-inspector.js";
import { main } from "./cli/main.js";

// `skillgate run | head` closes stdout early: stop quietly instead of crashing on EPIPE.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw e;
});

process.exitCode = await main(process.argv.slice(2));
