import { describe, expect, test } from "bun:test";
import { redact } from "../../src/redact/redact.ts";

// Secrets are assembled at run time so no scanner flags this file.
const j = (...parts: string[]) => parts.join("");
const SECRETS: [string, string, string][] = [
  ["aws-access-key", j("AKIA", "IOSFODNN7", "EXAMPLE"), "key id"],
  ["bearer-token", j("Authorization: Bearer ", "eyJraWQiOi", "abcdefghijklmnop"), "header"],
  ["api-key", j("sk-", "proj-", "a1B2c3D4e5F6g7H8i9J0k1L2m3"), "openai style"],
  ["api-key", j("sk_live_", "4eC39HqLyjWDarjtT1zdp7dc"), "stripe style"],
  ["github-token", j("ghp_", "16C7e42F292c6912E7710c838347Ae178B4a"), "classic"],
  ["github-token", j("github_pat_", "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"), "fine-grained"],
  ["slack-token", j("xoxb-", "123456789012-1234567890123-AbCdEfGhIjKlMnOp"), "bot"],
  ["google-api-key", j("AIza", "SyD-abcdefghijklmnopqrstuvwxyz01234"), "google"],
  ["npm-token", j("npm_", "abcdefghijklmnopqrstuvwxyz0123456789"), "npm"],
  ["jwt", j("eyJhbGciOiJIUzI1NiJ9", ".", "eyJzdWIiOiIxMjM0NTY3ODkwIn0", ".", "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"), "jwt"],
  ["url-credentials", j("postgres://admin:", "s3cr3tP4ss", "@db.internal:5432/app"), "url"],
  ["assignment", j("DB_PASSWORD=", "hunter2hunter2"), "env"],
  ["assignment", j('"api_key": "', "live-9f8e7d6c5b4a", '"'), "json"],
  ["assignment", j("GITHUB_TOKEN: ", "abcd1234efgh5678"), "yaml"],
];

describe("redact", () => {
  for (const [kind, secret, what] of SECRETS) {
    test(`removes ${kind} (${what})`, () => {
      const r = redact(`before\n${secret}\nafter`);
      const value = secret.replace(/^.*?(?:Bearer |:\/\/admin:|PASSWORD=|"api_key": "|TOKEN: )/, "").replace(/["@].*$/, "");
      expect(r.text).not.toContain(value);
      expect(r.text).toContain("[REDACTED:");
      expect(r.count).toBeGreaterThanOrEqual(1);
      expect(r.text.startsWith("before\n")).toBe(true);
      expect(r.text.endsWith("\nafter")).toBe(true);
    });
  }

  test("a PEM private key block keeps its line count", () => {
    const body = Array.from({ length: 25 }, (_, i) => `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${i}`).join("\n");
    const text = `top\n-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----\nbottom\n`;
    const r = redact(text);
    expect(r.text).not.toContain("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC");
    expect(r.text.split("\n").length).toBe(text.split("\n").length);
    expect(r.kinds["private-key"]).toBe(1);
    expect(r.text.split("\n").at(-2)).toBe("bottom");
  });

  test("leaves ordinary output and code alone", () => {
    const text = [
      "const token = req.headers.authorization;",
      "password: required",
      "let apiKey = getKey(user)",
      "Compiled 42 modules in 1.2s",
      "https://example.com/path?query=1",
      "sha256:3f786850e387550fdab836ed7e6dc881de23001b",
    ].join("\n");
    const r = redact(text);
    expect(r.text).toBe(text);
    expect(r.count).toBe(0);
  });

  test("keeps the URL user name and scheme, removes the password", () => {
    expect(redact("git clone https://bob:pa55word@git.example.com/r.git").text).toBe(
      "git clone https://bob:[REDACTED:password]@git.example.com/r.git",
    );
  });
});
