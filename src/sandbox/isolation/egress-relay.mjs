// @ts-check
/**
 * The agent side of the egress path: the first program inside a confined agent's sandbox. It listens on loopback
 * ports of the sandbox's own network namespace (which has no other interface and no route out), relays every
 * connection to a unix socket bound into the sandbox, then runs the agent and exits with its status.
 *
 *   node egress-relay.mjs PORT=SOCKET [PORT=SOCKET …] -- COMMAND [ARG …]
 *
 * It is untrusted on purpose: it runs as the sandbox uid beside the agent, which may kill or replace it. It holds
 * nothing the agent lacks (the agent can open the sockets itself); what may be reached is decided at the other
 * end of each socket, by skillgate's egress proxy (egress.ts). Plain JavaScript with no imports but Node's: the
 * bundle copies this file as is, and each run gets its own copy.
 */
import { spawn } from "node:child_process";
import { createConnection, createServer } from "node:net";
import { constants } from "node:os";

/** @param {string} message */
function fail(message) {
  process.stderr.write(`skillgate egress relay: ${message}\n`);
  process.exit(125);
}

const argv = process.argv.slice(2);
const end = argv.indexOf("--");
if (end < 0 || end === argv.length - 1) fail("usage: PORT=SOCKET … -- COMMAND [ARG …]");
const routes = argv.slice(0, end).map((spec) => {
  const eq = spec.indexOf("=");
  const port = Number(spec.slice(0, eq));
  const socket = spec.slice(eq + 1);
  if (eq < 0 || !Number.isInteger(port) || port < 1 || port > 65535 || !socket) fail(`bad route ${spec}`);
  return { port, socket };
});
const [command, ...args] = argv.slice(end + 1);

/**
 * One relayed connection: bytes both ways, a half-close passed on (HTTP clients may end their side first), and
 * either side failing or closing ends both.
 * @param {import("node:net").Socket} client
 * @param {string} socket
 */
function relay(client, socket) {
  const upstream = createConnection({ path: socket, allowHalfOpen: true });
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on("error", close).on("close", close);
  upstream.on("error", close).on("close", close);
  client.pipe(upstream);
  upstream.pipe(client);
}

/** @param {{ port: number, socket: string }} route */
function listen(route) {
  return new Promise((resolve, reject) => {
    const server = createServer({ allowHalfOpen: true }, (c) => relay(c, route.socket));
    server.once("error", reject);
    server.listen({ port: route.port, host: "127.0.0.1" }, () => resolve(undefined));
  });
}

try {
  await Promise.all(routes.map(listen));
} catch (err) {
  fail(`cannot listen: ${/** @type {Error} */ (err).message}`);
}

// The agent inherits stdin, stdout and stderr; only it reads and writes them.
const child = spawn(/** @type {string} */ (command), args, { stdio: "inherit" });
child.on("error", (err) => fail(`cannot start ${command}: ${err.message}`));
child.on("exit", (code, signal) => {
  // A signal's death reads as the shell would say it (128 + number): the parent sees this process exit.
  process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
});
