/** SHA-256 as lower-case hex: the one content hash (works under Bun and Node). */
import { createHash, type Hash } from "node:crypto";

export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** For data that arrives in pieces: update(...) each piece, then digest("hex"). */
export function sha256Stream(): Hash {
  return createHash("sha256");
}

/** The raw 32-byte SHA-256 of a string: Bun's one-shot hasher when there is one (a few times faster per call), node:crypto's otherwise. */
export const sha256Bytes: (data: string) => Uint8Array =
  typeof Bun !== "undefined" && typeof Bun.SHA256?.hash === "function"
    ? (data) => Bun.SHA256.hash(data) as Uint8Array
    : (data) => createHash("sha256").update(data).digest();
