/**
 * Where a traced process tried to reach: the address of a `connect` or `sendto`, the name in a DNS query it sent
 * (the sandbox's resolver is the namespace's own loopback: the query is sent and traced, then refused), the host
 * of an HTTP request or proxy `CONNECT` it wrote with `send`. The sandbox lets none of it out: the attempt is
 * what is recorded.
 */
import { quotedBytes } from "./strace.js";

export interface Endpoint {
  family: "inet" | "inet6" | "unix";
  address: string;
  port?: number;
}

/** The socket address printed in a `connect`/`sendto` argument, or undefined. */
export function parseSockaddr(arg: string | undefined): Endpoint | undefined {
  if (!arg?.startsWith("{sa_family=")) return undefined;
  const port = Number(/sin6?_port=htons\((\d+)\)/.exec(arg)?.[1] ?? Number.NaN);
  if (arg.startsWith("{sa_family=AF_INET,")) {
    const address = /inet_addr\("([^"]+)"\)/.exec(arg)?.[1];
    return address ? { family: "inet", address, port } : undefined;
  }
  if (arg.startsWith("{sa_family=AF_INET6,")) {
    const address = /inet_pton\(AF_INET6, "([^"]+)"/.exec(arg)?.[1];
    return address ? { family: "inet6", address, port } : undefined;
  }
  if (arg.startsWith("{sa_family=AF_UNIX,")) {
    const path = /sun_path=(@?"(?:[^"\\]|\\.)*")/.exec(arg)?.[1];
    const bytes = quotedBytes(path?.replace(/^@/, ""));
    return bytes ? { family: "unix", address: bytes.toString("utf8") } : undefined;
  }
  return undefined;
}

/** Loopback and unspecified addresses: inside the sandbox they reach only the trial's own processes. */
export function isLocalAddress(address: string): boolean {
  return (
    address.startsWith("127.") ||
    address === "0.0.0.0" ||
    address === "::1" ||
    address === "::" ||
    address.startsWith("::ffff:127.")
  );
}

/** A host name or address that is the sandbox's own loopback (`localhost`, `127.0.0.1`, `[::1]`). */
export function isLocalHost(host: string): boolean {
  const h = host
    .toLowerCase()
    .replace(/\.$/, "")
    .replace(/^\[(.*)\]$/, "$1");
  return h === "localhost" || h.endsWith(".localhost") || isLocalAddress(h);
}

/** Sockets of container engines and the host's init: reaching one from the sandbox is an escape attempt. */
export function isEscapeSocket(path: string): boolean {
  return /(?:^|\/)(?:docker|containerd|podman|crio|dockershim)\.sock$|^\/run\/systemd\/private$/.test(path);
}

/** The question of a DNS query, or undefined when the bytes are not one. */
export function dnsQueryName(b: Buffer): string | undefined {
  if (b.length < 17) return undefined;
  const flags = b.readUInt16BE(2);
  const questions = b.readUInt16BE(4);
  // A query (QR 0), standard opcode, one or a few questions.
  if (flags & 0x8000 || (flags >> 11) & 0xf || questions < 1 || questions > 4) return undefined;
  const labels: string[] = [];
  let i = 12;
  for (;;) {
    const n = b[i];
    if (n === undefined || n > 63) return undefined;
    i++;
    if (n === 0) break;
    if (i + n > b.length) return undefined;
    const label = b.subarray(i, i + n).toString("latin1");
    if (!/^[\x21-\x7e]+$/.test(label)) return undefined;
    labels.push(label);
    i += n;
  }
  // QTYPE and QCLASS follow.
  if (labels.length === 0 || i + 4 > b.length) return undefined;
  return labels.join(".");
}

/** The host an HTTP request or proxy `CONNECT` written on a socket names, or undefined. */
export function httpHost(b: Buffer): string | undefined {
  const head = b.subarray(0, 2048).toString("latin1");
  const connect = /^CONNECT ([^\s:/]+)(?::\d+)? HTTP\/1\.[01]\r?\n/.exec(head);
  if (connect) return connect[1]!.toLowerCase();
  const absolute = /^[A-Z]{3,7} https?:\/\/([^\s:/]+)[^\s]* HTTP\/1\.[01]\r?\n/.exec(head);
  if (absolute) return absolute[1]!.toLowerCase();
  if (!/^[A-Z]{3,7} \S+ HTTP\/1\.[01]\r?\n/.test(head)) return undefined;
  return /\r?\nhost:\s*([^\s:]+)/i.exec(head)?.[1]?.toLowerCase();
}

/** The data buffers of a `sendto`, `sendmsg` or `sendmmsg` call (each `iov_base`, or the buffer argument). */
export function sentBuffers(name: string, args: readonly string[]): Buffer[] {
  if (name === "sendto") {
    const b = quotedBytes(args[1]);
    return b ? [b] : [];
  }
  const out: Buffer[] = [];
  for (const m of (args[1] ?? "").matchAll(/iov_base=("(?:[^"\\]|\\.)*")/g)) {
    const b = quotedBytes(m[1]);
    if (b) out.push(b);
  }
  return out;
}
