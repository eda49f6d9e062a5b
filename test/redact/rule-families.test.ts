/**
 * The rule families added for issue 22, each with values generated here (seeded shapes, real keys
 * from node:crypto), never copied from any evaluation set: what must go, and the look-alike that
 * must stay.
 */
import { describe, expect, test } from "bun:test";
import { createHash, generateKeyPairSync } from "node:crypto";
import { bip39Index, bip39Word } from "../../src/redact/bip39-english.ts";
import { isPrivateDer } from "../../src/redact/der-keys.ts";
import { redact } from "../../src/redact/redact.ts";
import { validMnemonic } from "../../src/redact/seed-phrases.ts";
import { ALNUM, createShapes, HEX } from "./secret-shapes.ts";

const s = createShapes(2201);

/** Every secret is gone, and the text around it is unchanged. */
function gone(text: string, ...secrets: string[]): string {
  const out = redact(text).text;
  for (const secret of secrets) expect(out).not.toContain(secret);
  expect(out.split("\n").length).toBe(text.split("\n").length);
  return out;
}

function kept(text: string): void {
  expect(redact(text).text).toBe(text);
}

/** A valid BIP-39 phrase of n words from random entropy. */
function mnemonic(words: number): string {
  const entropy = Uint8Array.from({ length: (words * 11 - words / 3) / 8 }, () => s.int(256));
  const hash = createHash("sha256").update(entropy).digest();
  const bits =
    [...entropy].map((b) => b.toString(2).padStart(8, "0")).join("") +
    hash[0]!
      .toString(2)
      .padStart(8, "0")
      .slice(0, words / 3);
  return Array.from({ length: words }, (_, i) => bip39Word(Number.parseInt(bits.slice(i * 11, i * 11 + 11), 2))).join(" ");
}

describe("protocol transcripts and password arguments", () => {
  const pw = s.password(18);
  test.each([
    ["SMTP AUTH PLAIN", `C: EHLO ci\nC: AUTH PLAIN ${Buffer.from(`\0bot@example.org\0${pw}`).toString("base64")}\nS: 235 ok`],
    ["FTP PASS", `USER deploy\n331 need password\nPASS ${pw}\n230 ok`],
    ["IMAP LOGIN", `a7 LOGIN reader@example.org "${pw}"\na7 OK`],
    ["Redis MONITOR", `1700000000.1 [0 10.1.2.3:5000] "AUTH" "${pw}"`],
    ["expect send", `spawn ssh ops@host\nexpect "*assword:"\nsend "${pw}\\r"`],
    ["openssl pass:", `openssl rsa -in k.pem -passin pass:${pw} -out plain.pem`],
    ["keytool", `keytool -list -keystore app.jks -storepass ${pw} -keypass ${pw}`],
    ["sqlcmd -P", `sqlcmd -S db01 -U sa -P '${pw}' -Q "select 1"`],
    ["sudo -S", `echo '${pw}' | sudo -S apt-get update`],
    ["net use", `net use Q: \\\\srv\\share /user:DOM\\ops ${pw}`],
    ["htpasswd -b", `htpasswd -bc /etc/web/.htpasswd ops '${pw}'`],
    ["ConvertTo-SecureString", `$p = ConvertTo-SecureString "${pw}" -AsPlainText -Force`],
    ["NetworkCredential", `var c = new NetworkCredential("ops", "${pw}");`],
    ["HTTPBasicAuth", `r = get(url, auth=HTTPBasicAuth('ops', '${pw}'))`],
    ["SQL IDENTIFIED BY", `ALTER USER 'app'@'%' IDENTIFIED BY '${pw}';`],
    ["SQL WITH PASSWORD", `CREATE ROLE app LOGIN WITH PASSWORD '${pw}';`],
    ["redis.conf", `port 6380\nrequirepass ${pw}\nmasterauth ${pw}`],
    ["haproxy", `userlist ops\n  user admin insecure-password ${pw}`],
    ["Cisco IOS", `username ops privilege 15 password 0 ${pw}`],
    ["wpa_supplicant", `network={\n  ssid="lab"\n  psk="${pw}"\n}`],
    ["XML add key/value", `<add key="ClearTextPassword" value="${pw}" />`],
    ["XML property", `<property name="db.connection.password">${pw}</property>`],
    ["XML element with attributes", `<ns:Password Type="PasswordText">${pw}</ns:Password>`],
    ["Go MySQL DSN", `dsn := "app:${pw}@tcp(10.0.0.5:3306)/shop"`],
    ["Oracle JDBC", `jdbc:oracle:thin:app/${pw}@db.example.org:1521/XE`],
    ["builder", `Builder.create().username("ops").password("${pw}").build();`],
  ])("%s", (_, text) => {
    gone(text, pw);
  });

  test("look-alikes stay: server capabilities, prompts, variables", () => {
    kept("S: 250-AUTH PLAIN LOGIN\nS: 250 8BITMIME");
    kept('expect "password:"\nsend "$env(PASSWORD)\\r"');
    kept("echo $SUDO_PASSWORD | sudo -S true");
    kept('<add key="ApiBaseUrl" value="https://api.example.org/v2" />');
  });
});

describe("token formats", () => {
  test.each([
    ["Tencent SecretId", `AKID${s.mixed(ALNUM, 32)}`],
    ["Resend", `re_${s.mixed(ALNUM, 8)}_${s.mixed(ALNUM, 24)}`],
    ["Asana", `1/${s.chars("0123456789", 16)}/${s.chars("0123456789", 16)}:${s.chars(HEX, 32)}`],
    ["legacy Vault", `s.${s.mixed(ALNUM, 24)}`],
    ["Braintree", `access_token$production$${s.chars("abcdefghijklmnopqrstuvwxyz0123456789", 16)}$${s.chars(HEX, 32)}`],
    ["FCM server key", `AAAA${s.mixed(ALNUM, 7)}:APA91b${s.mixed(ALNUM, 134)}`],
    ["Google access token with dots", `ya29.c.${s.mixed(ALNUM, 120)}`],
  ])("%s", (_, token) => {
    gone(`value: ${token}\n`, token);
  });

  test("placeholders stay", () => {
    kept("STRIPE_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx");
    kept("GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX");
    kept("SLACK_TOKEN=xoxb-your-slack-token");
  });
});

describe("recovery phrases", () => {
  for (const n of [12, 18, 24]) {
    test(`a ${n}-word phrase with its checksum, spaced, numbered or quoted`, () => {
      const phrase = mnemonic(n);
      expect(validMnemonic(phrase.split(" ").map((w) => bip39Index(w)))).toBe(true);
      gone(`your recovery phrase: ${phrase}\n`, phrase);
      const numbered = phrase
        .split(" ")
        .map((w, i) => `${String(i + 1).padStart(2)}. ${w}`)
        .join("\n");
      gone(
        `Write down these words:\n${numbered}\n`,
        ...phrase
          .split(" ")
          .filter((w) => w.length > 5)
          .slice(0, 1),
      );
      gone(`{"wallet": "${phrase}"}`, phrase);
    });
  }

  test("list words with a wrong checksum, and prose, stay", () => {
    const words = mnemonic(12).split(" ");
    // Change the last word until the checksum fails.
    let last = bip39Index(words[11]!);
    do last = (last + 1) % 2048;
    while (validMnemonic([...words.slice(0, 11).map((w) => bip39Index(w)), last]));
    kept(`seed words: ${[...words.slice(0, 11), bip39Word(last)].join(" ")}`);
    kept("the wallet seed must never leave this machine and every backup should be kept offline in a safe place");
  });
});

describe("key material", () => {
  const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 });
  const pkcs1 = rsa.privateKey.export({ type: "pkcs1", format: "der" }).toString("base64");
  const pkcs8 = rsa.privateKey.export({ type: "pkcs8", format: "der" }).toString("base64");
  const spki = rsa.publicKey.export({ type: "spki", format: "der" }).toString("base64");

  test("bare DER private keys go; a public key stays", () => {
    expect(isPrivateDer(pkcs1)).toBe(true);
    expect(isPrivateDer(pkcs8)).toBe(true);
    expect(isPrivateDer(spki)).toBe(false);
    gone(`SIGNING_KEY=${pkcs1}\n`, pkcs1.slice(0, 40), pkcs1.slice(-40));
    gone(`saml:\n  sp_key: ${pkcs8}\n`, pkcs8.slice(0, 40), pkcs8.slice(-40));
    kept(`PUBLIC_KEY=${spki}\n`);
  });

  test("an OpenVPN static key block", () => {
    const lines = Array.from({ length: 16 }, () => s.chars(HEX, 32));
    gone(`-----BEGIN OpenVPN Static key V1-----\n${lines.join("\n")}\n-----END OpenVPN Static key V1-----\n`, ...lines);
  });

  test("what secret-printing commands print", () => {
    const wg = s.base64(32);
    gone(`$ wg genkey\n${wg}\n`, wg);
    const hex = s.chars(HEX, 32);
    gone(`$ cat config/credentials.key\n${hex}\n`, hex);
    const bytes = Array.from({ length: 64 }, () => s.int(256)).join(",");
    gone(`$ cat ~/wallets/keypair.json\n[${bytes}]\n`, bytes);
    kept(`$ cat notes.txt\n${hex}\n`);
  });
});

/** A CSV field as exporters write it: quoted, inner quotes doubled. */
const csv = (v: string) => `"${v.replaceAll('"', '""')}"`;

describe("long values", () => {
  test("a value longer than the judged stretch is redacted to its end", () => {
    const blob = s.base64(900);
    gone(`SIGNING_SECRET=${blob}\nnext=1\n`, blob.slice(0, 40), blob.slice(-40));
  });
});

describe("cookies and CSV exports", () => {
  test("session cookies go, the others stay", () => {
    const sid = s.chars("abcdefghijklmnopqrstuvwxyz0123456789", 32);
    const out = gone(`Cookie: lang=en; app_session=${sid}; theme=light`, sid);
    expect(out).toContain("lang=en");
    expect(out).toContain("theme=light");
    gone(`Set-Cookie: sessid=${sid}; Path=/; HttpOnly`, sid);
    gone(`# Netscape HTTP Cookie File\n.example.org\tTRUE\t/\tTRUE\t1900000000\tauth_token\t${sid}\n`, sid);
    kept("Set-Cookie: theme=dark; Path=/");
  });

  test("the password column of a CSV export", () => {
    const a = s.password(16);
    const b = s.password(20);
    const out = gone(
      `title,login,password,url\nMail,ops,${csv(a)},https://mail.example.org\n"Bank","me",${csv(b)},"https://bank.example"\n`,
      a,
      b,
    );
    expect(out).toContain("https://mail.example.org");
    kept("name,token_count,password_policy\nalpha,12,strict\n");
  });
});

describe("harmless look-alikes", () => {
  test.each([
    ["secret manager reference", "db_password: vault:secret/data/app/db#password"],
    ["masked value", "DATABASE_URL=postgres://app:[MASKED]@db:5432/app"],
    ["escape-only value", "    password='\\x00',"],
    ["a label naming the credential", '  "resetPassword": "Reset your password?",'],
    ["a public key", `  public key: ${s.base64(32)}`],
    ["a WebSocket nonce", `Sec-WebSocket-Key: ${s.base64(16)}`],
    ["a checksum annotation", `    checksum/secret: ${s.chars(HEX, 64)}`],
    ["a cache key", `Cache restored from key: deps-Linux-x64-${s.chars(HEX, 64)}`],
    ["an object key", `  "Key": "exports/2025/01/02/${s.chars(HEX, 16)}.csv.gz",`],
  ])("%s", (_, text) => {
    kept(text);
  });
});
