import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { hasSecrets, redact } from "../../src/redact/redact.ts";
import { harmlessDocs, trickyLines } from "./harmless-corpus.ts";

const ROOT = join(import.meta.dir, "..", "..");

/** Lines of `before` that redaction changed, as "n: before -> after". */
function changedLines(before: string, after: string): string[] {
  const a = before.split("\n");
  const b = after.split("\n");
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) out.push(`${i + 1}: ${a[i]} -> ${b[i]}`);
  return out;
}

describe("harmless corpus", () => {
  for (const doc of harmlessDocs()) {
    test(`leaves ${doc.name} unchanged (${doc.text.split("\n").length} lines)`, () => {
      const r = redact(doc.text);
      expect(changedLines(doc.text, r.text)).toEqual([]);
      expect(r.count).toBe(0);
      expect(hasSecrets(doc.text)).toBe(false);
    });
  }

  test("leaves each secret-looking line unchanged on its own", () => {
    const changed = trickyLines().filter((line) => redact(line).text !== line || hasSecrets(line));
    expect(changed).toEqual([]);
  });

  // Real library code that handles tokens (read where it is installed, not copied): names like
  // token, secret, authorization and password everywhere, no credentials.
  const code = [
    "node_modules/hono/dist/middleware/bearer-auth/index.js",
    "node_modules/hono/dist/middleware/jwt/jwt.js",
    "node_modules/hono/dist/utils/jwt/jwt.js",
    "node_modules/hono/dist/utils/jwt/jws.js",
    "node_modules/@modelcontextprotocol/sdk/dist/esm/client/auth.js",
    "node_modules/@modelcontextprotocol/sdk/dist/esm/server/auth/handlers/token.js",
    "node_modules/google-auth-library/build/src/auth/oauth2client.js",
    "node_modules/google-auth-library/build/src/auth/googleauth.js",
    "node_modules/@octokit/auth-token/dist-bundle/index.js",
  ].filter((p) => existsSync(join(ROOT, p)));

  test.each(code)("leaves installed source %s unchanged", (path) => {
    const text = readFileSync(join(ROOT, path), "utf8");
    expect(changedLines(text, redact(text).text)).toEqual([]);
  });
});
