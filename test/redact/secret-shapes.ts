/**
 * Seeded generators for the shapes real credentials have: alphabets, lengths, and the checksums
 * some formats carry (GitHub and npm tokens end in a base62 CRC32 of their random part; age keys are
 * bech32 with its checksum; JWTs are base64url JSON). Never real keys: every value is random.
 */
import { createRng, type Rng } from "../../bench/prng.ts";

export const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const UPPER_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
export const LOWER = "abcdefghijklmnopqrstuvwxyz";
export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const HEX = "0123456789abcdef";
export const B64 = `${ALNUM}+/`;
export const B64URL = `${ALNUM}-_`;
export const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export type Shapes = Rng & {
  chars(alphabet: string, n: number): string;
  /** A password a person would choose: letters, digits and the punctuation that broke old rules. */
  password(n: number): string;
  base64(bytes: number): string;
  base64url(bytes: number): string;
  /** A random string with at least one digit, one lower- and one upper-case letter (a real key's mix). */
  mixed(alphabet: string, n: number): string;
  githubToken(prefix: string): string;
  npmToken(): string;
  ageKey(): string;
  jwt(): string;
  pemBody(bytes: number, magic: string): string;
};

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(s: string): number {
  let c = 0xffffffff;
  for (let i = 0; i < s.length; i++) c = CRC_TABLE[(c ^ s.charCodeAt(i)) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function base62(n: number, width: number): string {
  let out = "";
  let v = n;
  while (v > 0) {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out.padStart(width, "0");
}

const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

function bech32Polymod(values: number[]): number {
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= gen[i]!;
  }
  return chk >>> 0;
}

export function bech32Encode(hrp: string, data: number[]): string {
  const expand = [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)];
  const mod = bech32Polymod([...expand, ...data, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...data, ...checksum].map((d) => BECH32[d]).join("")}`;
}

function toBase64Url(bytes: Uint8Array | string): string {
  return Buffer.from(bytes).toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function createShapes(seed: number): Shapes {
  const rng = createRng(seed);
  const chars = (alphabet: string, n: number): string => {
    let out = "";
    for (let i = 0; i < n; i++) out += alphabet[rng.int(alphabet.length)];
    return out;
  };
  const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => rng.int(256));
  const mixed = (alphabet: string, n: number): string => {
    for (;;) {
      const s = chars(alphabet, n);
      const has = (re: RegExp) => re.test(s) || !re.test(alphabet);
      if (has(/[0-9]/) && has(/[a-z]/) && has(/[A-Z]/)) return s;
    }
  };
  return {
    ...rng,
    chars,
    mixed,
    password: (n) => {
      const pool = `${ALNUM}$({,;!@#%^&*-_=+.?`;
      for (;;) {
        const s = chars(pool, n);
        if (/[0-9]/.test(s) && /[A-Za-z]/.test(s) && /[^A-Za-z0-9]/.test(s) && !s.startsWith("$") && !s.startsWith("{")) return s;
      }
    },
    base64: (n) => Buffer.from(bytes(n)).toString("base64"),
    base64url: (n) => toBase64Url(bytes(n)),
    githubToken: (prefix) => {
      const random = chars(BASE62, 30);
      return `${prefix}${random}${base62(crc32(random), 6)}`;
    },
    npmToken: () => {
      const random = chars(BASE62, 30);
      return `npm_${random}${base62(crc32(random), 6)}`;
    },
    ageKey: () =>
      bech32Encode(
        "age-secret-key-",
        Array.from({ length: 52 }, () => rng.int(32)),
      ).toUpperCase(),
    jwt: () => {
      const header = toBase64Url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
      const payload = toBase64Url(
        JSON.stringify({
          sub: String(rng.range(1000, 999999)),
          name: chars(LOWER, 8),
          iat: 1710400000 + rng.int(1e6),
          scope: "read write",
        }),
      );
      return `${header}.${payload}.${toBase64Url(bytes(32))}`;
    },
    pemBody: (n, magic) => {
      const body = magic + Buffer.from(bytes(n)).toString("base64").slice(magic.length);
      return body.match(/.{1,64}/g)!.join("\n");
    },
  };
}
