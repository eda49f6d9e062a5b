/** SHA-256 as lower-case hex: the one content hash (works under Bun and Node). */
import { createHash, type Hash } from "node:crypto";

export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** For data that arrives in pieces: update(...) each piece, then digest("hex"). */
export function sha256Stream(): Hash {
  return createHash("sha256");
}
