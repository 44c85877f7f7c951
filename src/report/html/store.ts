import { gzipSync } from "node:zlib";
import { esc } from "./escape.js";

/** Characters of JSON per chunk of the store: opening a transcript decompresses one chunk, not the whole store. */
const STORE_CHUNK_CHARS = 512 * 1024;

/**
 * The bodies the page fills in on demand (transcripts, long lists), in chunks of about `STORE_CHUNK_CHARS`: each
 * chunk JSON, gzip-compressed and base64-encoded (a fraction of the bytes to read; the browser's own
 * DecompressionStream opens it) in a data block no browser runs. An id names its chunk: `<chunk>.<n>`.
 */
export class Store {
  private readonly chunks: Map<string, string>[] = [new Map()];
  private chunkChars = 0;
  private count = 0;

  add(body: string): string {
    if (this.chunkChars + body.length > STORE_CHUNK_CHARS && this.chunks.at(-1)!.size > 0) {
      this.chunks.push(new Map());
      this.chunkChars = 0;
    }
    const id = `${this.chunks.length - 1}.${this.count++}`;
    this.chunks.at(-1)!.set(id, body);
    this.chunkChars += body.length;
    return id;
  }

  /** The data blocks; `redact` sees each chunk's JSON before it is compressed (no later pass could see into it). */
  html(redact: (text: string) => string): string {
    return this.chunks
      .map((c, i) => {
        const data = gzipSync(redact(JSON.stringify(Object.fromEntries(c))), { level: 6 }).toString("base64");
        return `<script type="text/plain" class="sg-store" data-chunk="${i}" data-encoding="gzip+base64">${esc(data)}</script>`;
      })
      .join("\n");
  }
}
