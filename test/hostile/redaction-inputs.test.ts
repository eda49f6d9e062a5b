/**
 * Hostile input for redaction: what wakes each rule, repeated, truncated, nested, on one line or
 * many. Every input must come back with the same number of lines, unchanged by a second pass, with
 * hasSecrets agreeing with redact, and without throwing. (How long they take is measured in
 * bench/redaction.ts, not here.)
 */
import { describe, expect, test } from "bun:test";
import { hasSecrets, redact } from "../../src/redact/redact.ts";

const KB = 1024;
const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

const INPUTS: [string, string][] = [
  ["private key words", "private key ".repeat(6 * KB)],
  ["private key then hex runs", `private key ${"0123456789abcdef".repeat(5 * KB)}`],
  ["Discord-like heads", "MTabc.defghi.jklmnopqrstuvwxyzABCDEFGHIJK ".repeat(2 * KB)],
  ["Telegram-like ids", "123456789:AAbc ".repeat(5 * KB)],
  ["digits, colon, AA, truncated", `${"9".repeat(20 * KB)}:AA`],
  [".pgpass-like lines", "h:5432:d:u:p\n".repeat(5 * KB)],
  [".pgpass with escapes", "h:5432:d:u:\\:\\:\\:\\\\x\n".repeat(2 * KB)],
  ["wildcard ports", ":*:".repeat(20 * KB)],
  ["YAML block heads", "password: |\n".repeat(5 * KB)],
  ["YAML block, one deep block", `password: |\n${"  x\n".repeat(16 * KB)}`],
  ["YAML block, ragged indents", `token: >-\n${Array.from({ length: 4 * KB }, (_, i) => `${" ".repeat(1 + (i % 7))}v${i}`).join("\n")}`],
  ["define( unclosed", "define('password', 'x".repeat(3 * KB)],
  ["define( nested", `${"define('DB_PASSWORD', ".repeat(2 * KB)}'x'${")".repeat(2 * KB)}`],
  ["AWS key ids and fields", "AKIAABCDEFGHIJKLMNOP,".repeat(3 * KB)],
  ["AWS key id then 39/41 chars", `AKIAABCDEFGHIJKLMNOP,${"a".repeat(39)}\nAKIAABCDEFGHIJKLMNOQ,${"A1b".repeat(14)}`],
  [
    "5K base58, distinct",
    Array.from({ length: 2 * KB }, (_, i) => `5K${Array.from({ length: 49 }, (_, j) => B58[(i * 7 + j * 13) % 58]).join("")}`).join(" "),
  ],
  ["secret access key words", "secret access key ".repeat(4 * KB)],
  ["dollar values", "PASSWORD=$".repeat(6 * KB)],
  ["member chains", `DB_PASSWORD=${"a.".repeat(20 * KB)}`],
  ["Pwd= runs", ";Pwd=".repeat(10 * KB)],
  ["base64 JSON heads", `eyJ0eXBl${"A".repeat(60 * KB)}`],
  ["age heads", "AGE-SECRET-KEY-1".repeat(3 * KB)],
  ["SG. heads", "SG.".repeat(20 * KB)],
  ["mnemonic lines", "mnemonic: abandon ability able about above absent absorb abstract absurd abuse access\n".repeat(KB)],
  ["telegram words", "telegram ".repeat(6 * KB)],
  ["seed words on one line", `seed ${"abandon ability able about above absent ".repeat(4 * KB)}`],
  ["numbered word lists", `recovery words\n${Array.from({ length: 4 * KB }, (_, i) => `${(i % 24) + 1}. abandon`).join("\n")}`],
  ["cookie words", "Cookie: session=".repeat(6 * KB)],
  ["cookie file headers", "# Netscape HTTP Cookie File\n".repeat(3 * KB)],
  ["CSV header rows", "name,password\n".repeat(6 * KB)],
  ["MII heads", "MII".repeat(20 * KB)],
  ["MII runs", `MIIEowIBAAKCAQEA${"A".repeat(60 * KB)}`],
  ["protocol commands", "AUTH PLAIN PASS LOGIN ".repeat(4 * KB)],
  ["XML settings", '<add key="password" value="'.repeat(3 * KB)],
  ["command outputs", "$ wg genkey\n$ cat a.key\n".repeat(3 * KB)],
  ["password flags", "sqlcmd -P -storepass pass: net use ".repeat(2 * KB)],
];

function lines(text: string): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

describe("redaction on hostile input", () => {
  test.each(INPUTS)("%s: same lines, stable, hasSecrets agrees", (_name, text) => {
    const once = redact(text);
    expect(lines(once.text)).toBe(lines(text));
    expect(redact(once.text).text).toBe(once.text);
    expect(hasSecrets(text)).toBe(once.count > 0);
  });

  test("a value redacted inside each hostile input is still found when planted there", () => {
    const secret = "Zq8!vLm2Kp#Rt5";
    for (const [, text] of INPUTS) {
      const planted = `${text.slice(0, 2000)}\nDB_PASSWORD=${secret}\n${text.slice(2000, 4000)}`;
      expect(redact(planted).text).not.toContain(secret);
    }
  });
});
