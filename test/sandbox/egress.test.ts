/**
 * The egress proxy on its own: routes planned from endpoint URLs, a pipe route joined to its one endpoint, the
 * CONNECT route answering only allowed host:port pairs, and everything cut when the trial ends. Real sockets on
 * loopback and in a temporary folder; the relay inside a sandbox is exercised by the agents' tests.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  EGRESS_PORT_BASE,
  type EgressProxy,
  MAX_CONNECT_HEADER_BYTES,
  MAX_EGRESS_CONNECTIONS,
  parseConnectLine,
  parseEndpoint,
  planEgress,
  startEgressProxy,
} from "../../src/sandbox/isolation/egress.js";

describe("planEgress", () => {
  it("gives each plain-HTTP endpoint a pipe route and its relayed URL, every HTTPS endpoint one CONNECT route", () => {
    const plan = planEgress([
      "http://127.0.0.1:4000/v1",
      "https://api.anthropic.com",
      "http://127.0.0.1:4000/other",
      "https://Bedrock.example.com:8443/x",
      "http://gateway.internal",
    ]);
    expect(plan.routes).toEqual([
      {
        kind: "pipe",
        port: EGRESS_PORT_BASE,
        endpoints: [{ scheme: "http", host: "127.0.0.1", port: 4000 }],
      },
      {
        kind: "connect",
        port: EGRESS_PORT_BASE + 1,
        endpoints: [
          { scheme: "https", host: "api.anthropic.com", port: 443 },
          { scheme: "https", host: "bedrock.example.com", port: 8443 },
        ],
      },
      {
        kind: "pipe",
        port: EGRESS_PORT_BASE + 2,
        endpoints: [{ scheme: "http", host: "gateway.internal", port: 80 }],
      },
    ]);
    expect(plan.env).toEqual({
      HTTPS_PROXY: `http://127.0.0.1:${EGRESS_PORT_BASE + 1}`,
      https_proxy: `http://127.0.0.1:${EGRESS_PORT_BASE + 1}`,
    });
    expect(plan.sandboxUrl("http://127.0.0.1:4000/v1")).toBe(`http://127.0.0.1:${EGRESS_PORT_BASE}/v1`);
    expect(plan.sandboxUrl("http://127.0.0.1:4000")).toBe(`http://127.0.0.1:${EGRESS_PORT_BASE}`);
    expect(plan.sandboxUrl("http://127.0.0.1:4000/")).toBe(`http://127.0.0.1:${EGRESS_PORT_BASE}/`);
    expect(plan.sandboxUrl("http://gateway.internal/anthropic?x=1")).toBe(
      `http://127.0.0.1:${EGRESS_PORT_BASE + 2}/anthropic?x=1`,
    );
    // TLS end to end: the agent keeps the URL its certificate names.
    expect(plan.sandboxUrl("https://api.anthropic.com")).toBe("https://api.anthropic.com");
    expect(() => plan.sandboxUrl("http://127.0.0.1:4001")).toThrow(/not a planned endpoint/);
  });

  it("no endpoints, no route and no proxy variable; anything but http(s) is refused", () => {
    expect(planEgress([])).toMatchObject({ routes: [], env: {} });
    expect(() => planEgress(["ftp://example.com"])).toThrow(/only http and https/);
    expect(() => planEgress(["not a url"])).toThrow(/not a URL/);
    expect(parseEndpoint("https://[::1]:8443/")).toEqual({ scheme: "https", host: "::1", port: 8443 });
  });
});

describe("parseConnectLine", () => {
  it("reads host and port of a CONNECT request line, nothing else", () => {
    expect(parseConnectLine("CONNECT api.anthropic.com:443 HTTP/1.1")).toEqual({
      host: "api.anthropic.com",
      port: 443,
    });
    expect(parseConnectLine("CONNECT [::1]:8443 HTTP/1.0")).toEqual({ host: "::1", port: 8443 });
    expect(parseConnectLine("CONNECT API.Anthropic.COM:443 HTTP/1.1")?.host).toBe("api.anthropic.com");
    for (const bad of [
      "GET http://api.anthropic.com/ HTTP/1.1",
      "CONNECT api.anthropic.com HTTP/1.1",
      "CONNECT api.anthropic.com:99999 HTTP/1.1",
      "CONNECT api.anthropic.com:443 HTTP/2",
      "CONNECT user@host:443 HTTP/1.1",
      "CONNECT api.anthropic.com:443  HTTP/1.1",
      "connect api.anthropic.com:443 HTTP/1.1",
    ])
      expect(parseConnectLine(bad), bad).toBeUndefined();
  });
});

/** A loopback TCP server that counts connections and echoes what it gets, prefixed with its name. */
async function echoServer(
  name: string,
): Promise<{ server: Server; port: number; connections: () => number }> {
  let n = 0;
  const server = createServer((s) => {
    n++;
    s.on("data", (d) => s.write(`${name}:${d}`));
    s.on("error", () => {});
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, port: (server.address() as { port: number }).port, connections: () => n };
}

/** Connects to a unix socket, writes `send`, and collects what comes back until the peer closes or `ms` pass. */
function exchange(path: string, send: string | Buffer, ms = 3000): Promise<{ got: string; closed: boolean }> {
  return new Promise((resolve) => {
    const s: Socket = createConnection(path);
    let got = "";
    const timer = setTimeout(() => {
      s.destroy();
      resolve({ got, closed: false });
    }, ms);
    s.on("data", (d) => {
      got += d.toString("latin1");
    });
    s.on("close", () => {
      clearTimeout(timer);
      resolve({ got, closed: true });
    });
    s.on("error", () => {});
    s.write(send);
  });
}

describe("startEgressProxy", () => {
  let allowed: Awaited<ReturnType<typeof echoServer>>;
  let other: Awaited<ReturnType<typeof echoServer>>;
  let dir: string;
  let proxy: EgressProxy | undefined;
  beforeAll(async () => {
    allowed = await echoServer("allowed");
    other = await echoServer("other");
  });
  afterAll(() => {
    allowed.server.close();
    other.server.close();
  });
  afterEach(() => {
    proxy?.close();
    proxy = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (urls: string[]) => {
    dir = mkdtempSync(join(tmpdir(), "sg-egress-"));
    proxy = await startEgressProxy(planEgress(urls), dir);
    return proxy;
  };

  it("a pipe route joins every connection to its one endpoint, whatever the agent sends", async () => {
    const p = await start([`http://127.0.0.1:${allowed.port}`]);
    expect(p.sockets).toHaveLength(1);
    const sock = p.sockets[0]!;
    expect(sock.sandboxPath).toBe("/run/proxy/egress-0.sock");
    expect(p.relayArgs).toEqual([`${EGRESS_PORT_BASE}=/run/proxy/egress-0.sock`]);
    // Connectable by the sandbox uid; the folder around it stays closed.
    expect(statSync(sock.hostPath).mode & 0o777).toBe(0o666);
    const before = other.connections();
    const r = await exchange(sock.hostPath, `CONNECT 127.0.0.1:${other.port} HTTP/1.1\r\n\r\n`, 500);
    expect(r.got).toBe(`allowed:CONNECT 127.0.0.1:${other.port} HTTP/1.1\r\n\r\n`);
    expect(other.connections()).toBe(before);
  });

  it("the CONNECT route tunnels to an allowed host:port and refuses any other, a bad line, another method", async () => {
    const p = await start([`https://127.0.0.1:${allowed.port}`]);
    const path = p.sockets[0]!.hostPath;
    const before = other.connections();
    // Allowed: 200, then bytes both ways (the bytes sent with the request go through too).
    const ok = await exchange(
      path,
      `CONNECT 127.0.0.1:${allowed.port} HTTP/1.1\r\nHost: x\r\n\r\nhello`,
      1000,
    );
    expect(ok.got).toBe("HTTP/1.1 200 Connection Established\r\n\r\nallowed:hello");
    const denied = await exchange(path, `CONNECT 127.0.0.1:${other.port} HTTP/1.1\r\n\r\n`);
    expect(denied.got).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(denied.closed).toBe(true);
    const localhost = await exchange(path, `CONNECT localhost:${allowed.port} HTTP/1.1\r\n\r\n`);
    expect(localhost.got).toMatch(/^HTTP\/1\.1 403 /);
    const get = await exchange(path, `GET http://127.0.0.1:${other.port}/ HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(get.got).toMatch(/^HTTP\/1\.1 405 /);
    expect(other.connections()).toBe(before);
    expect(p.refused).toEqual([
      `127.0.0.1:${other.port}`,
      `localhost:${allowed.port}`,
      JSON.stringify(`GET http://127.0.0.1:${other.port}/ HTTP/1.1`),
    ]);
  });

  it("an oversized request is refused before it is read to its end", async () => {
    const p = await start([`https://127.0.0.1:${allowed.port}`]);
    const r = await exchange(
      p.sockets[0]!.hostPath,
      `CONNECT 127.0.0.1:${allowed.port} HTTP/1.1\r\nX: ${"a".repeat(MAX_CONNECT_HEADER_BYTES)}`,
    );
    expect(r.got).toMatch(/^HTTP\/1\.1 431 /);
  });

  it("an unreachable allowed endpoint is a 502, and the tunnel is never opened", async () => {
    const gone = await echoServer("gone");
    const port = gone.port;
    await new Promise((r) => gone.server.close(r));
    const p = await start([`https://127.0.0.1:${port}`]);
    const r = await exchange(p.sockets[0]!.hostPath, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`);
    expect(r.got).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n[\s\S]*ECONNREFUSED/);
  });

  it(`holds at most ${MAX_EGRESS_CONNECTIONS} connections of one trial, and close() cuts every one`, async () => {
    const p = await start([`http://127.0.0.1:${allowed.port}`]);
    const path = p.sockets[0]!.hostPath;
    const sockets: Socket[] = [];
    const closed: boolean[] = [];
    for (let i = 0; i < MAX_EGRESS_CONNECTIONS + 5; i++) {
      const s = createConnection(path);
      s.on("error", () => {});
      s.on("close", () => {
        closed[i] = true;
      });
      sockets.push(s);
    }
    const deadline = Date.now() + 10_000;
    while (closed.filter(Boolean).length < 5 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(closed.filter(Boolean).length).toBe(5);
    p.close();
    while (closed.filter(Boolean).length < sockets.length && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(closed.filter(Boolean).length).toBe(sockets.length);
    // Nothing listens any more.
    const after = await exchange(path, "x", 1000);
    expect(after).toEqual({ got: "", closed: true });
  });
});
