/**
 * The parent's side of a talk with one sandbox child: signed messages from the child (channel.ts) settle what the
 * caller waits for (the module loaded, probe answers, a predicate's value); the child's end, its failure or a
 * tampered channel rejects whatever is still open with `ChildGone`.
 */
import { ResultChannel } from "./channel.js";
import type { ChildMessage, ProbeAnswer } from "./protocol.js";
import { inputJson } from "./tagged.js";

/** A live sandbox child, for the caller to talk to while it runs (see `runSandboxSession`). */
export interface LiveChild {
  /** Resolves once the module loaded and its export was found. */
  loaded: Promise<{ export?: string; fnName?: string }>;
  /** Sends one batch of probes; resolves with the collector's answers, in order. */
  request(probes: unknown[]): Promise<ProbeAnswer[]>;
  /** A predicate's value. */
  result: Promise<unknown>;
}

/** Thrown into the caller's work when the child ended, failed or was tampered with before answering. */
export class ChildGone extends Error {}

export class Conversation {
  loadedInfo: { export?: string; fnName?: string } | undefined;
  failed: { failure: "load" | "crash"; message: string } | undefined;
  readonly channel: ResultChannel;
  readonly live: LiveChild;
  /** The child's stdin, once it runs. */
  stdin: NodeJS.WritableStream | undefined;
  private gone: ((err: ChildGone) => void)[] = [];
  private readonly waiting = new Map<number, (answers: ProbeAnswer[]) => void>();
  private nextId = 1;
  private resolveLoaded!: (v: { export?: string; fnName?: string }) => void;
  private resolveResult!: (v: unknown) => void;

  constructor(key: Buffer) {
    const loaded = this.settleOnEnd<{ export?: string; fnName?: string }>((r) => {
      this.resolveLoaded = r;
    });
    const result = this.settleOnEnd<unknown>((r) => {
      this.resolveResult = r;
    });
    loaded.catch(() => {});
    result.catch(() => {});
    this.channel = new ResultChannel(key, (msg) => this.onMessage(msg));
    this.live = { loaded, result, request: (probes) => this.request(probes) };
  }

  /** A promise settled by the child's message, or rejected when the conversation ends first. */
  private settleOnEnd<V>(executor: (resolve: (v: V) => void) => void): Promise<V> {
    return new Promise<V>((res, rej) => {
      this.gone.push(rej);
      executor(res);
    });
  }

  private onMessage(msg: ChildMessage): void {
    if (msg.type === "loaded" && !this.loadedInfo) {
      this.loadedInfo = { export: msg.export, fnName: msg.fnName };
      this.resolveLoaded(this.loadedInfo);
    } else if (msg.type === "observed" && this.waiting.has(msg.id)) {
      const answer = this.waiting.get(msg.id) as (a: ProbeAnswer[]) => void;
      this.waiting.delete(msg.id);
      answer(msg.answers);
    } else if (msg.type === "result") this.resolveResult(msg.value);
    else if (msg.type === "failed") this.failed ??= { failure: msg.failure, message: msg.message };
    else return; // a signed message we did not ask for: ignored (the child never sends one)
    if (msg.type === "failed") this.end(`the child failed: ${msg.message}`);
  }

  private request(probes: unknown[]): Promise<ProbeAnswer[]> {
    const stdin = this.stdin;
    if (this.channel.tampered || !stdin) return Promise.reject(new ChildGone("the child is not running"));
    const id = this.nextId++;
    return this.settleOnEnd<ProbeAnswer[]>((res) => {
      this.waiting.set(id, res);
      // Probe inputs may hold NaN, −0 or undefined: written tagged (decodeInput reads them back).
      stdin.write(`${inputJson({ id, probes })}\n`);
    });
  }

  /** Rejects everything still open: nothing more from this child is waited for. */
  end(why: string): void {
    const rejects = this.gone;
    this.gone = [];
    for (const r of rejects) r(new ChildGone(why));
    for (const [id] of this.waiting) this.waiting.delete(id);
  }
}
