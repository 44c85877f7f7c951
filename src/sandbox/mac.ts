/**
 * How the sandbox child signs its answers: HMAC-SHA256, in plain JavaScript, over the SHA-256 digest of the
 * message. The untrusted module runs in the child's process, so the key must never reach node:crypto there:
 * Node's Hmac objects (and the native handles behind them) have prototypes the module can patch, which would
 * turn our own signing into an oracle for forged answers. The HMAC here uses only frozen intrinsics
 * (`--frozen-intrinsics`: Math, typed arrays, String) and keeps the key as two precomputed states in closures,
 * never as a string. The message digest itself comes from node:crypto (fast on megabytes, where this code
 * under the property gates' Maglev-only tier is not): a module that patches the hash can only make the child
 * sign a digest that does not match the line it writes, and the parent, which recomputes both with its own
 * node:crypto, then fails the run as tampered.
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const IV = new Int32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);
const BLOCK = 64;
/** Bytes of the key the parent sends first on stdin. */
export const MAC_KEY_BYTES = 32;

const w = new Int32Array(64);

/** One SHA-256 compression of `block` (64 bytes at `off`) into `state`. */
function compress(state: Int32Array, block: Uint8Array, off: number): void {
  for (let i = 0; i < 16; i++) {
    const j = off + i * 4;
    w[i] =
      ((block[j] as number) << 24) |
      ((block[j + 1] as number) << 16) |
      ((block[j + 2] as number) << 8) |
      (block[j + 3] as number);
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15] as number;
    const b = w[i - 2] as number;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = ((w[i - 16] as number) + s0 + (w[i - 7] as number) + s1) | 0;
  }
  let a = state[0] as number;
  let b = state[1] as number;
  let c = state[2] as number;
  let d = state[3] as number;
  let e = state[4] as number;
  let f = state[5] as number;
  let g = state[6] as number;
  let h = state[7] as number;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (h + S1 + ch + (K[i] as number) + (w[i] as number)) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (S0 + maj) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = ((state[0] as number) + a) | 0;
  state[1] = ((state[1] as number) + b) | 0;
  state[2] = ((state[2] as number) + c) | 0;
  state[3] = ((state[3] as number) + d) | 0;
  state[4] = ((state[4] as number) + e) | 0;
  state[5] = ((state[5] as number) + f) | 0;
  state[6] = ((state[6] as number) + g) | 0;
  state[7] = ((state[7] as number) + h) | 0;
}

/** Finishes a hash whose state has absorbed `prefixBytes` bytes already, over `data`; returns the digest. */
function finish(start: Int32Array, prefixBytes: number, data: Uint8Array, length: number): Uint8Array {
  const state = new Int32Array(start);
  let off = 0;
  for (; off + BLOCK <= length; off += BLOCK) compress(state, data, off);
  const rest = length - off;
  const tail = new Uint8Array(rest < 56 ? BLOCK : 2 * BLOCK);
  for (let i = 0; i < rest; i++) tail[i] = data[off + i] as number;
  tail[rest] = 0x80;
  const bits = (prefixBytes + length) * 8;
  const end = tail.length;
  // Message length in bits, big-endian 64-bit (messages stay far below 2^53 bits).
  const high = Math.floor(bits / 0x100000000);
  tail[end - 8] = (high >>> 24) & 0xff;
  tail[end - 7] = (high >>> 16) & 0xff;
  tail[end - 6] = (high >>> 8) & 0xff;
  tail[end - 5] = high & 0xff;
  tail[end - 4] = (bits >>> 24) & 0xff;
  tail[end - 3] = (bits >>> 16) & 0xff;
  tail[end - 2] = (bits >>> 8) & 0xff;
  tail[end - 1] = bits & 0xff;
  for (let o = 0; o < end; o += BLOCK) compress(state, tail, o);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    const v = state[i] as number;
    out[i * 4] = (v >>> 24) & 0xff;
    out[i * 4 + 1] = (v >>> 16) & 0xff;
    out[i * 4 + 2] = (v >>> 8) & 0xff;
    out[i * 4 + 3] = v & 0xff;
  }
  return out;
}

/** UTF-8 bytes of `s` (lone surrogates as U+FFFD, as TextEncoder and Buffer write them). */
export function utf8(s: string): { bytes: Uint8Array; length: number } {
  const bytes = new Uint8Array(s.length * 3);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        bytes[n++] = 0xf0 | (cp >>> 18);
        bytes[n++] = 0x80 | ((cp >>> 12) & 0x3f);
        bytes[n++] = 0x80 | ((cp >>> 6) & 0x3f);
        bytes[n++] = 0x80 | (cp & 0x3f);
        i++;
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x80) bytes[n++] = c;
    else if (c < 0x800) {
      bytes[n++] = 0xc0 | (c >>> 6);
      bytes[n++] = 0x80 | (c & 0x3f);
    } else {
      bytes[n++] = 0xe0 | (c >>> 12);
      bytes[n++] = 0x80 | ((c >>> 6) & 0x3f);
      bytes[n++] = 0x80 | (c & 0x3f);
    }
  }
  return { bytes, length: n };
}

const HEX = "0123456789abcdef";

/**
 * A signer for `key` (zeroed here once absorbed): returns the hex HMAC-SHA256 of the bytes it is given (the
 * child gives it a message's SHA-256 digest). The key lives on only as the two states after its padded block.
 */
export function macSigner(key: Uint8Array): (message: string | Uint8Array) => string {
  if (key.length > BLOCK) throw new Error("HMAC key longer than one block");
  const pad = new Uint8Array(BLOCK);
  const inner = new Int32Array(IV);
  const outer = new Int32Array(IV);
  for (let i = 0; i < BLOCK; i++) pad[i] = (key[i] ?? 0) ^ 0x36;
  compress(inner, pad, 0);
  for (let i = 0; i < BLOCK; i++) pad[i] = (key[i] ?? 0) ^ 0x5c;
  compress(outer, pad, 0);
  pad.fill(0);
  key.fill(0);
  return (message) => {
    const { bytes, length } =
      typeof message === "string" ? utf8(message) : { bytes: message, length: message.length };
    const innerDigest = finish(inner, BLOCK, bytes, length);
    const mac = finish(outer, BLOCK, innerDigest, innerDigest.length);
    let hex = "";
    for (let i = 0; i < mac.length; i++) {
      const b = mac[i] as number;
      hex += HEX.charAt(b >>> 4) + HEX.charAt(b & 15);
    }
    return hex;
  };
}
