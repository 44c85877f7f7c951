/**
 * A minimal Chrome DevTools Protocol client over `--remote-debugging-pipe`: JSON messages ended by a NUL byte,
 * commands written to the browser's fd 3 and answers read from its fd 4. No TCP port is opened. The messages
 * come from a browser that rendered hostile input: they are parsed as JSON only, their size is capped, and
 * nothing in them is trusted beyond being data the judge validates afterwards.
 */

/** Largest single message accepted from the browser (a DOM of a few thousand nodes is well below). */
const MAX_CDP_MESSAGE_BYTES = 32 * 1024 * 1024;

class CdpError extends Error {}

interface Pending {
  resolve: (v: Record<string, unknown>) => void;
  reject: (e: Error) => void;
}

interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

export class PipeCdp {
  private out: NodeJS.WritableStream | undefined;
  private readonly queued: string[] = [];
  private buf: Buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners: ((e: CdpEvent) => void)[] = [];
  private gone: Error | undefined;

  /** The browser's command stream (its fd 3); writes made before it exists are queued. */
  attach(out: NodeJS.WritableStream): void {
    this.out = out;
    out.on("error", () => {});
    for (const m of this.queued.splice(0)) out.write(m);
  }

  /** A chunk of the browser's answer stream (its fd 4). */
  feed(chunk: Buffer): void {
    if (this.gone) return;
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (let end = this.buf.indexOf(0); end >= 0; end = this.buf.indexOf(0)) {
      const text = this.buf.subarray(0, end).toString("utf8");
      this.buf = this.buf.subarray(end + 1);
      this.dispatch(text);
    }
    if (this.buf.length > MAX_CDP_MESSAGE_BYTES)
      this.close(new CdpError(`a DevTools message exceeded ${MAX_CDP_MESSAGE_BYTES} bytes`));
  }

  private dispatch(text: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      this.close(new CdpError("the browser sent a message that is not JSON"));
      return;
    }
    if (msg === null || typeof msg !== "object") return;
    const m = msg as Record<string, unknown>;
    if (typeof m.id === "number") {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      const err = m.error as { message?: unknown } | undefined;
      if (err) p.reject(new CdpError(String(err.message ?? "DevTools error")));
      else p.resolve((m.result ?? {}) as Record<string, unknown>);
    } else if (typeof m.method === "string") {
      const e: CdpEvent = {
        method: m.method,
        params: (m.params ?? {}) as Record<string, unknown>,
        sessionId: typeof m.sessionId === "string" ? m.sessionId : undefined,
      };
      for (const l of [...this.listeners]) l(e);
    }
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    const text = `${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.out) this.out.write(text);
      else this.queued.push(text);
    });
  }

  /** Calls `listener` with every event until the returned function is called. */
  on(listener: (e: CdpEvent) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Resolves with the first event `method` (of `sessionId`) for which `test` holds. */
  waitFor(method: string, sessionId?: string, test: (p: Record<string, unknown>) => boolean = () => true) {
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      if (this.gone) {
        reject(this.gone);
        return;
      }
      const key = -this.nextId++;
      const l = (e: CdpEvent) => {
        if (e.method !== method || (sessionId && e.sessionId !== sessionId) || !test(e.params)) return;
        this.listeners.splice(this.listeners.indexOf(l), 1);
        this.pending.delete(key);
        resolve(e.params);
      };
      this.listeners.push(l);
      this.pending.set(key, { resolve: () => {}, reject }); // rejected with everything on close
    });
  }

  /** Ends the session: every pending command fails with `why`. */
  close(why: Error): void {
    this.gone ??= why;
    for (const p of this.pending.values()) p.reject(this.gone);
    this.pending.clear();
    this.listeners.length = 0;
    this.out?.end();
  }
}
