import { createHash, hash } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";

/**
 * Small-file reads for discovery, which reads tens of thousands of files of a few hundred bytes: open, read
 * into one scratch buffer, close. `readFileSync` also `fstat`s every file to size its buffer, a quarter more
 * system calls (measured: 150 vs 200 ms CPU for 10,000 SKILL.md files).
 */
const SCRATCH = Buffer.allocUnsafe(64 * 1024);

/** The file's bytes (a copy: the scratch buffer is reused). */
export function readFileBytes(abs: string): Buffer {
  const fd = openSync(abs, "r");
  try {
    const n = readSync(fd, SCRATCH, 0, SCRATCH.length, 0);
    // A short read of a regular file is its end: no second read to learn it.
    if (n < SCRATCH.length) return Buffer.from(SCRATCH.subarray(0, n));
    const chunks: Buffer[] = [Buffer.from(SCRATCH)];
    for (let position = n; ; ) {
      const m = readSync(fd, SCRATCH, 0, SCRATCH.length, position);
      if (m === 0) break;
      chunks.push(Buffer.from(SCRATCH.subarray(0, m)));
      position += m;
      if (m < SCRATCH.length) break;
    }
    return Buffer.concat(chunks);
  } finally {
    closeSync(fd);
  }
}

/** sha256 of the file's bytes, hex, hashed straight from the scratch buffer (no copy of the content). */
export function sha256OfFile(abs: string): string {
  const fd = openSync(abs, "r");
  try {
    const n = readSync(fd, SCRATCH, 0, SCRATCH.length, 0);
    if (n < SCRATCH.length) return hash("sha256", SCRATCH.subarray(0, n), "hex");
    const h = createHash("sha256").update(SCRATCH);
    for (let position = n; ; ) {
      const m = readSync(fd, SCRATCH, 0, SCRATCH.length, position);
      if (m === 0) break;
      h.update(SCRATCH.subarray(0, m));
      position += m;
      if (m < SCRATCH.length) break;
    }
    return h.digest("hex");
  } finally {
    closeSync(fd);
  }
}
