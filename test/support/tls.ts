/** The test CA and the loopback server certificate of `test/fixtures/tls/` (see its README). */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const TLS_DIR = resolve(import.meta.dirname, "..", "fixtures", "tls");
/** The CA a client must trust to reach a scripted server in HTTPS mode. */
export const TEST_CA_FILE = join(TLS_DIR, "ca.pem");

export function testServerTls(): { key: Buffer; cert: Buffer } {
  return { key: readFileSync(join(TLS_DIR, "key.pem")), cert: readFileSync(join(TLS_DIR, "cert.pem")) };
}
