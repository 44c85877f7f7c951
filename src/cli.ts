#!/usr/bin/env node
import { main } from "./cli/main.js";

// `skillgate run | head` closes stdout early: stop quietly instead of crashing on EPIPE.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw e;
});

process.exitCode = await main(process.argv.slice(2));
