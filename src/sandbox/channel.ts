/**
 * The parent's end of the sandbox child's result channel (fd 3): splits the byte stream into lines, verifies
 * each line's signature (HMAC-SHA256 with the run's key over the SHA-256 of the JSON) and hands the messages on. The first line that does not verify
 * (forged, torn, or a stray write of the module) marks the run as tampered: nothing after it is trusted and
 * the run fails, whatever the child said before.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { ChildMessage } from "./protocol.js";

/** Longest line we buffer (a gate's largest observation batch is a few MB). */
const MAX_LINE_BYTES = 256 * 1024 * 1024;
const NEWLINE = 10;
const MAC_HEX_CHARS = 64;

export class ResultChannel {
  private parts: Buffer[] = [];
  private pendingBytes = 0;
  /** Why the channel can no longer be trusted, once it cannot. */
  tampered: string | undefined;

  constructor(
    private readonly key: Buffer,
    private readonly onMessage: (msg: ChildMessage) => void,
  ) {}

  push(chunk: Buffer): void {
    if (this.tampered) return;
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, from);
      if (nl < 0) break;
      const piece = chunk.subarray(from, nl);
      const line = this.parts.length ? Buffer.concat([...this.parts, piece]) : piece;
      this.parts = [];
      this.pendingBytes = 0;
      from = nl + 1;
      this.line(line);
      if (this.tampered) return;
    }
    if (from < chunk.length) {
      this.parts.push(chunk.subarray(from));
      this.pendingBytes += chunk.length - from;
      if (this.pendingBytes > MAX_LINE_BYTES)
        this.tamper(`a line on the result channel grew beyond ${MAX_LINE_BYTES} bytes`);
    }
  }

  /** At the end of the stream: a partial last line is a stray write too. */
  close(): void {
    if (!this.tampered && this.pendingBytes > 0)
      this.tamper("the result channel ended in the middle of a line");
  }

  private tamper(why: string): void {
    this.tampered ??= why;
  }

  private line(line: Buffer): void {
    const space = MAC_HEX_CHARS;
    const mac = line.subarray(0, space).toString("latin1");
    if (line.length <= space + 1 || line[space] !== 32 || !/^[0-9a-f]{64}$/.test(mac)) {
      this.tamper(`an unsigned line on the result channel: ${JSON.stringify(preview(line))}`);
      return;
    }
    const body = line.subarray(space + 1);
    const expected = createHmac("sha256", this.key)
      .update(createHash("sha256").update(body).digest())
      .digest();
    if (!timingSafeEqual(expected, Buffer.from(mac, "hex"))) {
      this.tamper(`a line on the result channel with a wrong signature: ${JSON.stringify(preview(body))}`);
      return;
    }
    let msg: ChildMessage;
    try {
      msg = JSON.parse(body.toString("utf8")) as ChildMessage;
    } catch {
      this.tamper("a signed line that is not JSON");
      return;
    }
    this.onMessage(msg);
  }
}

function preview(b: Buffer): string {
  const s = b.subarray(0, 120).toString("utf8");
  return b.length > 120 ? `${s}…` : s;
}
