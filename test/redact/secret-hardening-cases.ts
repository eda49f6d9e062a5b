/**
 * Hardening cases of the secret corpus (issue 22): the kinds an adversarial sweep found leaking,
 * each in several layouts, and more of the same families written here. Every value is random and
 * shaped by the issuer's published format; none is a real credential.
 */
import { createHash } from "node:crypto";
import type { SecretCase } from "./secret-cases.ts";
import { ALNUM, B64, B64URL, bech32Encode, HEX, LOWER, type Shapes, UPPER_ALNUM } from "./secret-shapes.ts";

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const DIGITS = "0123456789";

function base58(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString("hex")}`);
  let out = "";
  for (; n > 0n; n /= 58n) out = BASE58[Number(n % 58n)] + out;
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** A Bitcoin WIF private key: version byte, 32 key bytes, compression flag, double-SHA-256 checksum. */
function wif(s: Shapes, compressed: boolean): string {
  const key = Uint8Array.from({ length: 32 }, () => s.int(256));
  const body = Buffer.concat([Buffer.from([0x80]), key, compressed ? Buffer.from([1]) : Buffer.alloc(0)]);
  const sum = createHash("sha256").update(createHash("sha256").update(body).digest()).digest().subarray(0, 4);
  return base58(Buffer.concat([body, sum]));
}

/** A Discord bot token: base64 of the bot's 18-digit id, a 6-character timestamp, a 38-character HMAC. */
function discordToken(s: Shapes): string {
  const id = `${s.range(1, 9)}${s.chars(DIGITS, 17)}`;
  return `${Buffer.from(id).toString("base64url")}.${s.chars(B64URL, 6)}.${s.chars(B64URL, s.pick([27, 38]))}`;
}

const telegramToken = (s: Shapes) => `${s.range(100000000, 9999999999)}:AA${s.mixed(B64URL, 33)}`;

function pemBody(s: Shapes): string {
  return `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${s.base64(900).replace(/=+$/, "")}`.match(/.{1,64}/g)!.join("\n");
}

/** A GCP service-account key file (the shape `gcloud iam service-accounts keys create` writes). */
function serviceAccount(s: Shapes, body: string): Record<string, string> {
  const project = `${s.chars(LOWER, 6)}-${s.range(100000, 999999)}`;
  return {
    type: "service_account",
    project_id: project,
    private_key_id: s.chars(HEX, 40),
    private_key: `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\n`,
    client_email: `deployer@${project}.iam.gserviceaccount.com`,
    client_id: s.chars(DIGITS, 21),
    auth_uri: "https://accounts.google.com/o/oauth2/auth",
    token_uri: "https://oauth2.googleapis.com/token",
  };
}

/** What must not survive of a PEM body: a stretch from its middle (headers and footers stay). */
const middleOf = (body: string) => body.replace(/\n/g, "").slice(100, 140);

export function hardeningCases(s: Shapes): SecretCase[] {
  const cases: SecretCase[] = [];
  const add = (kind: string, text: string, ...secrets: string[]) => cases.push({ kind, text, secrets });
  const pw = () => s.password(s.range(10, 18));

  // GCP service-account JSON: pretty, compact, inside a shell variable, base64-encoded.
  for (const layout of ["pretty", "compact", "shell", "base64", "yaml"] as const) {
    const body = pemBody(s);
    const sa = serviceAccount(s, body);
    const json = layout === "compact" || layout === "shell" ? JSON.stringify(sa) : JSON.stringify(sa, null, 2);
    if (layout === "base64") {
      const encoded = Buffer.from(json).toString("base64");
      add("gcp-service-account", `GOOGLE_CREDENTIALS_B64: ${encoded}`, encoded.slice(300, 340));
    } else if (layout === "shell") add("gcp-service-account", `export GOOGLE_CREDENTIALS='${json}'`, middleOf(body));
    else if (layout === "yaml")
      add(
        "gcp-service-account",
        `credentials:\n  private_key: |\n${sa.private_key!.replace(/^/gm, "    ").trimEnd()}\n  client_email: ${sa.client_email}`,
        middleOf(body),
      );
    else add("gcp-service-account", json, middleOf(body));
  }

  // age identities: as age-keygen writes them, in an env var, post-quantum, lower case.
  for (let i = 0; i < 4; i++) {
    const data = Array.from({ length: 52 }, () => s.int(32));
    const pq = i === 2;
    const key = bech32Encode(pq ? "age-secret-key-pq-" : "age-secret-key-", data);
    const shown = i === 3 ? key : key.toUpperCase();
    const text = [
      `# created: 2025-03-14T09:26:53Z\n# public key: age1${s.chars("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58)}\n${shown}`,
      `SOPS_AGE_KEY=${shown}`,
      `identity: ${shown}`,
      `age -d -i <(echo ${shown}) secrets.age`,
    ][i]!;
    add("age-secret-key", text, shown.slice(16));
  }

  // Discord bot tokens: in a log line, a client call, a header, an env file.
  for (const ctx of [
    (t: string) => `[bot] logging in with ${t}`,
    (t: string) => `client.login("${t}");`,
    (t: string) => `curl -H "Authorization: Bot ${t}" https://discord.com/api/v10/users/@me`,
    (t: string) => `DISCORD_TOKEN=${t}`,
  ]) {
    const t = discordToken(s);
    add("discord-token", ctx(t), t.slice(t.indexOf(".") + 1));
  }

  // Telegram bot tokens: the API URL, a constructor, an env file, bare, after the word.
  for (const ctx of [
    (t: string) => `GET https://api.telegram.org/bot${t}/getUpdates 200`,
    (t: string) => `bot = telebot.TeleBot("${t}")`,
    (t: string) => `TELEGRAM_BOT_TOKEN=${t}`,
    (t: string) => `token ${t} accepted`,
  ]) {
    const t = telegramToken(s);
    add("telegram-token", ctx(t), t.slice(t.indexOf(":") + 1));
  }
  const oddTelegram = `${s.range(10000000, 99999999)}:${s.mixed(B64URL, 35)}`;
  add("telegram-token", `telegram bot: ${oddTelegram}`, oddTelegram.slice(9));

  // Notion: the current ntn_ format and variants of its length.
  for (const t of [`ntn_${s.chars(DIGITS, 11)}${s.mixed(ALNUM, 35)}`, `ntn_${s.mixed(ALNUM, 46)}`, `ntn_${s.mixed(ALNUM, 50)}`]) {
    add("notion-token", s.pick([`Notion-Version: 2022-06-28, using ${t}`, `"notionToken": "${t}"`, t]), t.slice(4));
  }

  // 1Password: service-account tokens (long base64 JSON) and secret keys in both groupings.
  for (let i = 0; i < 2; i++) {
    const t = `ops_eyJ${s.chars(B64, s.range(600, 900))}`;
    add("1password-token", i === 0 ? `OP_SERVICE_ACCOUNT_TOKEN=${t}` : `  token: "${t}"`, t.slice(40, 80));
  }
  const group = (n: number) => s.chars(UPPER_ALNUM, n);
  for (const key of [
    `A3-${group(6)}-${group(11)}-${group(5)}-${group(5)}-${group(5)}`,
    `A3-${group(6)}-${group(6)}-${group(5)}-${group(5)}-${group(5)}-${group(5)}`,
  ]) {
    add("1password-secret-key", `Secret Key: ${key}`, key.slice(3));
  }

  // SendGrid: dashes and underscores anywhere, in a header, JSON, a query string, lower case.
  for (const [ctx, lower] of [
    [(t: string) => `Authorization: Bearer ${t}`, false],
    [(t: string) => `{"sendgrid": {"key": "${t}"}}`, false],
    [(t: string) => `POST /v3/mail/send?api_key=${t}&x=1`, false],
    [(t: string) => `sg_key=${t.toLowerCase()}`, true],
    [(t: string) => `  - ${t}`, false],
  ] as const) {
    const t = `SG.${s.chars(B64URL, 21)}-.-${s.chars(B64URL, 42)}`;
    const secret = t.slice(27, 60);
    add("sendgrid-key", ctx(t), lower ? secret.toLowerCase() : secret);
  }

  // secp256k1 private keys: WIF (bare, after dumpprivkey, in JSON), BIP32 xprv, Nostr nsec, hex.
  const uncompressed = wif(s, false);
  add("secp256k1-key", `imported ${uncompressed} into the wallet`, uncompressed.slice(5));
  const compressed = wif(s, true);
  add(
    "secp256k1-key",
    `$ bitcoin-cli dumpprivkey bc1q${s.chars("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 38)}\n${compressed}`,
    compressed.slice(5),
  );
  const compressed2 = wif(s, true);
  add("secp256k1-key", `{"address": "1BoatSLRHtKNngkdXEeobR76b53LETtpyT", "wif": "${compressed2}"}`, compressed2.slice(5));
  const xprv = `xprv9s21ZrQH143K${s.chars(BASE58, 95)}`;
  add("secp256k1-key", `master key: ${xprv}`, xprv.slice(20));
  const nsec = bech32Encode(
    "nsec",
    Array.from({ length: 52 }, () => s.int(32)),
  );
  add("secp256k1-key", `NOSTR_NSEC=${nsec}`, nsec.slice(5));
  add("secp256k1-key", nsec, nsec.slice(5));
  const hex = s.chars(HEX, 64);
  add("secp256k1-key", `Private key (hex, secp256k1): ${hex}`, hex);
  const hex2 = s.chars(HEX, 64);
  add("secp256k1-key", `ETH_PRIVATE_KEY=0x${hex2}`, hex2);

  // .pgpass lines.
  for (const line of [
    (p: string) => `db.internal.example.com:5432:orders:app_rw:${p}`,
    (p: string) => `*:*:*:postgres:${p}`,
    (p: string) => `10.0.3.12:6432:*:pgbouncer:${p}`,
    (p: string) => `replica-1:*:analytics:report:${p}`,
  ]) {
    const p = s.mixed(`${ALNUM}!@#%^&*-_.`, s.range(12, 20)).replace(/^[*]/, "x");
    add("pgpass", `$ cat ~/.pgpass\n${line(p)}`, p);
  }

  // ODBC / ADO.NET connection strings: Pwd= in any case.
  for (const ctx of [
    (p: string) => `Driver={ODBC Driver 18 for SQL Server};Server=tcp:sql.example.net,1433;Database=app;Uid=svc;Pwd=${p};Encrypt=yes;`,
    (p: string) => `conn = pyodbc.connect("DRIVER={PostgreSQL Unicode};SERVER=db;DATABASE=x;UID=u;pwd=${p}")`,
    (p: string) => `"ConnectionStrings": {"Main": "Data Source=db;User ID=sa;PWD=${p};"}`,
  ]) {
    const p = s.mixed(`${ALNUM}!@#%^&*-_.`, s.range(10, 16));
    add("odbc-password", ctx(p), p);
  }

  // PHP define() and calls like it.
  for (const ctx of [
    (p: string) => `define('DB_PASSWORD', '${p}');`,
    (p: string) => `define( "SMTP_PASS", "${p}" );`,
    (p: string) => `os.environ.setdefault("DATABASE_PASSWORD", "${p}")`,
  ]) {
    const p = pw().replace(/['"\\]/g, "x");
    add("php-define", ctx(p), p);
  }
  const salt = s.chars(`${ALNUM}!#%&()*+,-./:;<=>?@[]^_{|}~`, 64).replace(/['\\]/g, "Q");
  add("php-define", `define('AUTH_KEY',         '${salt}');`, salt);

  // YAML block scalars.
  const blocks: [(p: string) => string, () => string][] = [
    [(p) => `database:\n  user: app\n  password: |\n    ${p}\n  host: db`, pw],
    [(p) => `smtp_password: >-\n  ${p}\nport: 587`, pw],
    [(p) => `users:\n  - name: deploy\n    password: |-\n      ${p}\n  - name: ci`, pw],
    [(p) => `api_token: |\n  ${p}`, () => s.mixed(ALNUM, 40)],
  ];
  for (const [ctx, value] of blocks) {
    const p = value();
    add("yaml-block-password", ctx(p), p);
  }

  // High-entropy values under secret-ish JSON keys.
  for (const name of ["key", "auth", "credential", "salt", "hmac", "private", "cookie", "otp", "secret"]) {
    const v = s.pick([s.mixed(`${ALNUM}!#$%&*+-=?@^_~`, s.range(16, 32)), s.base64(s.range(18, 40)), s.chars(HEX, 64)]);
    add("json-high-entropy", `{"id": 7, "${name}": "${v}", "ok": true}`, v);
  }

  // AWS credentials CSV (console download), a two-column export, a table, the aws configure prompt.
  const awsSecret = () => s.mixed(`${ALNUM}+/`, 40);
  const keyId = () => `AKIA${s.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)}`;
  const sec1 = awsSecret();
  add(
    "aws-credentials-csv",
    `User name,Password,Access key ID,Secret access key,Console login link\nci-bot,,${keyId()},${sec1},https://123456789012.signin.aws.amazon.com/console`,
    sec1,
  );
  const sec2 = awsSecret();
  add("aws-credentials-csv", `Access key ID,Secret access key\n${keyId()},${sec2}`, sec2);
  const sec3 = awsSecret();
  add("aws-credentials-csv", `| ${keyId()} | ${sec3} | active |`, sec3);
  const sec4 = awsSecret();
  add(
    "aws-credentials-csv",
    `$ aws configure\nAWS Access Key ID [None]: ${keyId()}\nAWS Secret Access Key [None]: ${sec4}\nDefault region name [None]: eu-west-1`,
    sec4,
  );

  // Passwords that start with `$`, and passwords shaped like member expressions.
  for (const ctx of [
    (p: string) => `DB_PASSWORD=${p}`,
    (p: string) => `password: ${p}`,
    (p: string) => `"password": "${p}"`,
    (p: string) => `mysql --password=${p} -h db`,
  ]) {
    const p = `$${s.pick(["ecret", "uper", "unny", "ummer"])}${s.mixed(ALNUM, 6)}`;
    add("dollar-password", ctx(p), p);
  }
  for (const ctx of [(p: string) => `SMTP_PASSWORD=${p}`, (p: string) => `  password: ${p}`, (p: string) => `export DB_PASS=${p}`]) {
    const p = s.pick([
      "correct.horse.battery.staple",
      `${s.chars(LOWER, 6)}.${s.chars(LOWER, 5)}${s.range(10, 99)}`,
      `mail.Server${s.range(10, 99)}`,
    ]);
    add("member-password", ctx(p), p);
  }

  // Beyond the sweep: recovery phrases, WordPress-style salts done above, netrc-like pgpass done above.
  const words = Array.from({ length: 12 }, () =>
    s.pick(["abandon", "ability", "tunnel", "orbit", "velvet", "lemon", "crane", "gossip", "ribbon", "pulse", "hazard", "ugly"]),
  );
  add("recovery-phrase", `mnemonic: ${words.join(" ")}`, words.slice(0, 4).join(" "));
  add("recovery-phrase", `{"seed_phrase": "${words.join(" ")}"}`, words.slice(4, 8).join(" "));
  return cases;
}
