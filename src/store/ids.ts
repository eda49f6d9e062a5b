/** Short, unambiguous source handles: "ctx_" and 8 characters (40 bits). */
const ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";

export function newHandle(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  let out = "ctx_";
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}
