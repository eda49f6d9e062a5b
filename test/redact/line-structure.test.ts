import { describe, expect, test } from "bun:test";
import { hasSecrets, redact } from "../../src/redact/redact.ts";
import { createShapes } from "./secret-shapes.ts";

const s = createShapes(3141);

describe("line structure", () => {
  test("a CRLF PEM block keeps its lines and its line endings", () => {
    const body = s.pemBody(400, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC").replace(/\n/g, "\r\n");
    const text = `top\r\n-----BEGIN PRIVATE KEY-----\r\n${body}\r\n-----END PRIVATE KEY-----\r\nbottom\r\n`;
    const r = redact(text);
    expect(r.text.split("\r\n").length).toBe(text.split("\r\n").length);
    expect(r.text.replace(/\r\n/g, "").includes("\n")).toBe(false);
    expect(r.text).toContain("-----BEGIN PRIVATE KEY-----\r\n[REDACTED:private-key]\r\n");
    expect(r.text.endsWith("-----END PRIVATE KEY-----\r\nbottom\r\n")).toBe(true);
  });

  test("a PEM key escaped inside JSON stays on its one line", () => {
    const body = s.pemBody(600, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC").replace(/\n/g, "\\n");
    const text = `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n${body}\\n-----END PRIVATE KEY-----\\n"}`;
    expect(redact(text).text).toBe(
      '{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n[REDACTED:private-key]\\n-----END PRIVATE KEY-----\\n"}',
    );
  });

  test("redacting twice changes nothing more, and hasSecrets agrees with redact", () => {
    const pw = s.password(14);
    const text = [`DB_PASSWORD=${pw}`, `url=https://bob:${pw}@db.example.com/x`, `token: ${s.githubToken("ghp_")}`, "plain line"].join(
      "\n",
    );
    const once = redact(text);
    expect(once.count).toBe(3);
    expect(redact(once.text).text).toBe(once.text);
    expect(hasSecrets(text)).toBe(true);
    expect(hasSecrets(once.text)).toBe(false);
  });

  test("text with nothing to redact comes back as it was", () => {
    const text = "compiled 42 modules in 1.2s\nall 318 tests passed\n";
    const r = redact(text);
    expect(r).toEqual({ text, count: 0, kinds: {} });
  });
});
