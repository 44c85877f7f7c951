/**
 * The only way out of a confined agent's sandbox: an allow-listing egress proxy in skillgate, reached over unix
 * sockets bound into the sandbox (the sandbox's network namespace has loopback only and no route out).
 *
 * Per trial, the proxy listens on one unix socket per route, in the trial's run folder (mode 0700, skillgate's):
 * - a **pipe** route per plain-HTTP endpoint (`http://host:port`): every connection is joined to that one
 *   host:port, whatever bytes the agent sends. The agent is given the endpoint as `http://127.0.0.1:<route port>`
 *   inside its sandbox, where `egress-relay.mjs` listens and relays to the socket.
 * - one **CONNECT** route for every HTTPS endpoint (`https://host:port`): an HTTP proxy that answers only
 *   `CONNECT host:port` for an allowed host:port and then pipes bytes, so TLS runs end to end between the agent and
 *   the endpoint (the proxy never sees a key or a request). The agent keeps the endpoint's own URL (its certificate
 *   names it) and is given `HTTPS_PROXY=http://127.0.0.1:<route port>`. This is how Claude Code's own sandbox lets
 *   tools out; both Claude Code and Codex honour `HTTPS_PROXY`. Host names are resolved here, by skillgate, only
 *   for allowed names: the sandbox's resolver reaches nothing (run-folder.ts) and needs nothing.
 * Anything else is refused: other methods, other hosts or ports, a malformed or oversized request line.
 */
import { chmodSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";

/** Where the sockets and the relay are bound inside the sandbox. */
export const SANDBOX_EGRESS_DIR = "/run/proxy";
/** Sandbox ports the relay listens on: route n at EGRESS_PORT_BASE + n (the namespace is the sandbox's own). */
export const EGRESS_PORT_BASE = 41_000;
/** A CONNECT request larger than this (request line and headers) is refused. */
export const MAX_CONNECT_HEADER_BYTES = 8 * 1024;
/** Time a client has to send its CONNECT request. */
const CONNECT_HEADER_TIMEOUT_MS = 10_000;
/** Connections one trial may hold open through the proxy at once (an agent cannot exhaust skillgate's files). */
export const MAX_EGRESS_CONNECTIONS = 64;

export interface EgressEndpoint {
  scheme: "http" | "https";
  /** Lower-case host name or address, without IPv6 brackets. */
  host: string;
  port: number;
}

export interface EgressRoute {
  kind: "pipe" | "connect";
  /** Loopback port inside the sandbox where the relay listens. */
  port: number;
  /** pipe: the one endpoint; connect: every allowed endpoint. */
  endpoints: EgressEndpoint[];
}

/** The egress of one agent: its routes, and how its configuration must change to use them. */
export interface EgressPlan {
  routes: EgressRoute[];
  /** Variables to set in the agent's environment (the CONNECT proxy, when there is an HTTPS endpoint). */
  env: Record<string, string>;
  /** The URL the agent must be given for `url` (one of the planned endpoints' URLs): inside the sandbox. */
  sandboxUrl(url: string): string;
}

/** Host and port of an http(s) URL; throws on anything else (a model endpoint is http or https). */
export function parseEndpoint(url: string): EgressEndpoint {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`egress: not a URL: ${url}`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new Error(`egress: only http and https endpoints can be allowed, not ${u.protocol} (${url})`);
  const scheme = u.protocol === "https:" ? "https" : "http";
  const host = u.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (!host) throw new Error(`egress: no host in ${url}`);
  return { scheme, host, port: Number(u.port || (scheme === "https" ? 443 : 80)) };
}

const key = (e: Pick<EgressEndpoint, "host" | "port">) => `${e.host}:${e.port}`;

/**
 * Routes for the agent's endpoints (URLs from the trusted configuration or the operator's environment). Pure: the
 * adapter rewrites its configuration before anything starts.
 */
export function planEgress(urls: readonly string[]): EgressPlan {
  const routes: EgressRoute[] = [];
  const pipes = new Map<string, EgressRoute>();
  let connect: EgressRoute | undefined;
  for (const url of urls) {
    const e = parseEndpoint(url);
    if (e.scheme === "http") {
      if (pipes.has(key(e))) continue;
      const route: EgressRoute = { kind: "pipe", port: EGRESS_PORT_BASE + routes.length, endpoints: [e] };
      pipes.set(key(e), route);
      routes.push(route);
    } else {
      if (!connect) {
        connect = { kind: "connect", port: EGRESS_PORT_BASE + routes.length, endpoints: [] };
        routes.push(connect);
      }
      if (!connect.endpoints.some((x) => key(x) === key(e))) connect.endpoints.push(e);
    }
  }
  const proxy = connect ? `http://127.0.0.1:${connect.port}` : undefined;
  return {
    routes,
    // Both spellings: programs differ in which they read. No NO_PROXY: nothing may bypass the proxy.
    env: proxy ? { HTTPS_PROXY: proxy, https_proxy: proxy } : {},
    sandboxUrl(url) {
      const e = parseEndpoint(url);
      if (e.scheme === "https") return url;
      const route = pipes.get(key(e));
      if (!route) throw new Error(`egress: ${url} is not a planned endpoint`);
      const u = new URL(url);
      u.hostname = "127.0.0.1";
      u.port = String(route.port);
      // URL keeps a bare origin's trailing slash; a base URL given without one stays without.
      return url.endsWith("/") || u.pathname !== "/" ? u.toString() : u.toString().replace(/\/$/, "");
    },
  };
}

/** One socket the proxy listens on: its host path, and where the sandbox sees it. */
export interface EgressSocket {
  route: EgressRoute;
  hostPath: string;
  sandboxPath: string;
}

export interface EgressProxy {
  sockets: EgressSocket[];
  /** `PORT=SOCKET` arguments of the relay. */
  relayArgs: string[];
  /** CONNECT targets refused so far (`host:port`, or the bad request line), for the trial's notes. */
  refused: string[];
  /** Stops listening and cuts every relayed connection. */
  close(): void;
}

/** Joins two sockets until either ends; a half-close is passed on. */
function join2(a: Socket, b: Socket, onClose: () => void): void {
  let closed = false;
  const close = () => {
    a.destroy();
    b.destroy();
    if (!closed) {
      closed = true;
      onClose();
    }
  };
  a.on("error", close).on("close", close);
  b.on("error", close).on("close", close);
  a.pipe(b);
  b.pipe(a);
}

/** Parses `CONNECT host:port HTTP/1.x`; undefined when it is anything else. */
export function parseConnectLine(line: string): { host: string; port: number } | undefined {
  const m = /^CONNECT (\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5}) HTTP\/1\.[01]$/.exec(line);
  if (!m) return undefined;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: m[1]!.replace(/^\[(.*)\]$/, "$1").toLowerCase(), port };
}

/**
 * Starts the proxy of one trial: a unix socket per route in `dir` (a folder skillgate made for the run, closed to
 * others), each made connectable by the sandbox uid (mode 0666 on the socket alone; the folder stays closed on
 * the host, and the sandbox reaches the socket through its bind).
 */
export async function startEgressProxy(plan: EgressPlan, dir: string): Promise<EgressProxy> {
  const servers: Server[] = [];
  const open = new Set<Socket>();
  const refused: string[] = [];
  let closed = false;

  /** Connections the agent opened (each with its upstream, if any, in `open`). */
  let clients = 0;
  const admit = (s: Socket): boolean => {
    if (closed || clients >= MAX_EGRESS_CONNECTIONS) {
      s.destroy();
      return false;
    }
    clients++;
    open.add(s);
    s.on("close", () => {
      clients--;
      open.delete(s);
    });
    return true;
  };
  const upstream = (e: { host: string; port: number }): Socket => {
    const up = createConnection({ host: e.host, port: e.port, allowHalfOpen: true });
    open.add(up);
    up.on("close", () => open.delete(up));
    return up;
  };

  const pipe = (route: EgressRoute) => (client: Socket) => {
    if (!admit(client)) return;
    join2(client, upstream(route.endpoints[0]!), () => {});
  };

  const gate = (route: EgressRoute) => (client: Socket) => {
    if (!admit(client)) return;
    const allowed = new Set(route.endpoints.map(key));
    let head = Buffer.alloc(0);
    let timer: NodeJS.Timeout | undefined;
    const refuse = (status: string, what: string) => {
      clearTimeout(timer);
      client.removeListener("data", onData);
      if (refused.length < 20) refused.push(what);
      const body = `skillgate egress: ${what} is not an allowed model endpoint\n`;
      client.end(
        `HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      client.on("error", () => client.destroy());
      setTimeout(() => client.destroy(), 1000).unref();
    };
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) {
        if (head.length > MAX_CONNECT_HEADER_BYTES)
          refuse("431 Request Header Fields Too Large", "(oversized request)");
        return;
      }
      if (end > MAX_CONNECT_HEADER_BYTES)
        return refuse("431 Request Header Fields Too Large", "(oversized request)");
      clearTimeout(timer);
      client.removeListener("data", onData);
      client.pause();
      const line = head.subarray(0, head.indexOf("\r\n")).toString("latin1");
      const target = parseConnectLine(line);
      if (!target) return refuse("405 Method Not Allowed", JSON.stringify(line.slice(0, 100)));
      if (!allowed.has(key(target))) return refuse("403 Forbidden", key(target));
      const rest = head.subarray(end + 4);
      const up = upstream(target);
      let connected = false;
      up.once("connect", () => {
        connected = true;
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (rest.length) up.write(rest);
        join2(client, up, () => {});
        client.resume();
      });
      up.once("error", (err) => {
        if (connected) return;
        up.destroy();
        const body = `skillgate egress: cannot reach ${key(target)}: ${(err as NodeJS.ErrnoException).code ?? err.message}\n`;
        client.end(
          `HTTP/1.1 502 Bad Gateway\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
      });
    };
    timer = setTimeout(
      () => refuse("408 Request Timeout", "(no CONNECT request in time)"),
      CONNECT_HEADER_TIMEOUT_MS,
    );
    client.on("data", onData);
    client.on("error", () => {
      clearTimeout(timer);
      client.destroy();
    });
    client.on("close", () => clearTimeout(timer));
  };

  const sockets: EgressSocket[] = [];
  try {
    for (const [i, route] of plan.routes.entries()) {
      const hostPath = join(dir, `egress-${i}.sock`);
      const server = createServer({ allowHalfOpen: true }, route.kind === "pipe" ? pipe(route) : gate(route));
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(hostPath, () => resolve());
      });
      server.on("error", () => {});
      // Made by this process for this run, in a folder closed to others: the sandbox uid must connect to it.
      chmodSync(hostPath, 0o666);
      sockets.push({ route, hostPath, sandboxPath: `${SANDBOX_EGRESS_DIR}/egress-${i}.sock` });
    }
  } catch (err) {
    for (const s of servers) s.close();
    throw err;
  }
  // The proxy must never keep skillgate alive on its own.
  for (const s of servers) s.unref();
  return {
    sockets,
    relayArgs: sockets.map((s) => `${s.route.port}=${s.sandboxPath}`),
    refused,
    close() {
      closed = true;
      for (const s of servers) s.close();
      for (const s of open) s.destroy();
      open.clear();
    },
  };
}
