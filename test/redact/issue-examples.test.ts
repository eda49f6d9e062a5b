/**
 * The adversarial evaluation's findings, one test each: secrets that were stored verbatim, harmless
 * text that was rewritten, and inputs that made redaction quadratic. Secrets are assembled at run
 * time from random parts so no scanner flags this file and no value is real.
 */
import { describe, expect, test } from "bun:test";
import { hasSecrets, redact } from "../../src/redact/redact.ts";
import { ALNUM, B64, createShapes, HEX, LETTERS } from "./secret-shapes.ts";

const SEED = 7411;
const s = createShapes(SEED);
const pw = (n = 14) => s.password(n);
const j = (...parts: string[]) => parts.join("");

/** [what, text, the secret part that must go] */
const MISSED: [string, string, string][] = (() => {
  const out: [string, string, string][] = [];
  const add = (what: string, make: (v: string) => string, v: string) => out.push([what, make(v), v]);
  add("bare glpat-", (v) => v, j("glpat-", s.mixed(ALNUM, 20)));
  add("bare gldt-", (v) => `deploy token ${v}`, j("gldt-", s.mixed(ALNUM, 20)));
  add(
    "xapp-",
    (v) => v,
    j("xapp-1-A", s.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 10), "-", s.chars("0123456789", 13), "-", s.chars(HEX, 64)),
  );
  add(
    "Slack webhook URL",
    (v) => `webhook: https://hooks.slack.com/services/${v}`,
    j("T", s.mixed(ALNUM, 9).toUpperCase(), "/B", s.mixed(ALNUM, 11).toUpperCase(), "/", s.mixed(ALNUM, 24)),
  );
  add("whsec_", (v) => `STRIPE_WEBHOOK=${v}`, j("whsec_", s.mixed(ALNUM, 32)));
  add("AIza ending in -", (v) => `key ${v} loaded`, j("AIza", s.chars(`${ALNUM}_-`, 34), "-"));
  add("ya29.", (v) => v, j("ya29.", s.mixed(`${ALNUM}_-`, 120)));
  add("lowercase bearer", (v) => `authorization: bearer ${v}`, s.mixed(ALNUM, 40));
  add("x-api-key:", (v) => `x-api-key: ${v}`, s.mixed(ALNUM, 32));
  add("redis://:pw@", (v) => `redis://:${v}@cache:6379/0`, s.mixed(ALNUM, 24));
  add("curl -u user:pw", (v) => `curl -u admin:${v} https://ci.example.com`, pw());
  add("sshpass", (v) => `sshpass -p '${v}' ssh deploy@host`, pw());
  add(".netrc", (v) => `machine api.example.com login bot password ${v}`, s.mixed(ALNUM, 16));
  add("npm _auth=", (v) => `_auth=${v}`, Buffer.from(`me:${pw()}`).toString("base64"));
  for (const ch of ["$", "(", "{", ",", ";"])
    add(`password= with ${ch}`, (v) => `password=${v}`, j(s.mixed(ALNUM, 5), ch, s.mixed(ALNUM, 5)));
  add("password= with spaces", (v) => `password="${v}"`, j(s.mixed(ALNUM, 5), " ", s.mixed(ALNUM, 5), " x"));
  add("DB_PASS", (v) => `DB_PASS=${v}`, pw());
  add("--password X", (v) => `app db connect --password ${v} --host db`, pw());
  add(
    "AccountKey=",
    (v) => `DefaultEndpointsProtocol=https;AccountName=logs;AccountKey=${v};EndpointSuffix=core.windows.net`,
    s.base64(64),
  );
  add("SAS sig=", (v) => `https://logs.blob.core.windows.net/c/app.log?sv=2022-11-02&sp=r&sig=${v}`, encodeURIComponent(s.base64(32)));
  add("bare SG.", (v) => v, j("SG.", s.chars(`${ALNUM}_-`, 22), ".", s.chars(`${ALNUM}_-`, 43)));
  add("Twilio SK", (v) => `using ${v}`, j("SK", s.chars(HEX, 32)));
  add("HRKU-", (v) => v, j("HRKU-AA", s.mixed(`${ALNUM}_-`, 58)));
  add('docker "auth"', (v) => `{"auths":{"https://index.docker.io/v1/":{"auth":"${v}"}}}`, Buffer.from(`me:${pw()}`).toString("base64"));
  add("dckr_pat_", (v) => v, j("dckr_pat_", s.mixed(`${ALNUM}_-`, 27)));
  add("APP_KEY", (v) => `APP_KEY=base64:${v}`, s.base64(32));
  add("ENCRYPTION_KEY", (v) => `ENCRYPTION_KEY=${v}`, s.chars(HEX, 64));
  add("SIGNING_KEY", (v) => `SIGNING_KEY="${v}"`, s.base64(48));
  add("Sentry DSN", (v) => `SENTRY_DSN=https://${v}@o4505.ingest.us.sentry.io/4506`, s.chars(HEX, 32));
  add("high-entropy JSON value", (v) => `{"client_secret": "${v}"}`, s.mixed(B64, 40));
  add("Hugging Face", (v) => v, j("hf_", s.mixed(LETTERS, 34)));
  add("Databricks", (v) => v, j("dapi", s.chars(HEX, 32)));
  add("Vault", (v) => v, j("hvs.", s.mixed(`${ALNUM}_-`, 90)));
  add("PyPI", (v) => v, j("pypi-AgEIcHlwaS5vcmc", s.base64url(100)));
  add("Tailscale", (v) => v, j("tskey-auth-k", s.mixed(ALNUM, 11), "-", s.mixed(ALNUM, 33)));
  add("Vercel", (v) => v, j("vcp_", s.mixed(ALNUM, 56)));
  add("Shopify", (v) => v, j("shpat_", s.chars(HEX, 32)));
  add("Grafana", (v) => v, j("glsa_", s.mixed(ALNUM, 32), "_", s.chars(HEX, 8)));
  add("Linear", (v) => v, j("lin_api_", s.mixed(ALNUM, 40)));
  add(
    "1Password",
    (v) => v,
    j(
      "A3-",
      s.chars("ABCDEFGHJKLMNPQRSTVWXYZ23456789", 6),
      "-",
      s.chars("ABCDEFGHJKLMNPQRSTVWXYZ23456789", 6),
      "-",
      "ABCDE-FGHJK-LMNPQ-RSTVW",
    ),
  );
  return out;
})();

describe("issue 1: realistic secrets are redacted", () => {
  console.log(`issue examples seed ${SEED}`);
  test.each(MISSED)("%s", (_what, text, secret) => {
    const r = redact(text);
    expect(r.text).not.toContain(secret);
    expect(r.text).toContain("[REDACTED:");
    expect(hasSecrets(text)).toBe(true);
  });

  test("PuTTY, age and truncated PEM keys", () => {
    const putty = j(
      "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ci\nPublic-Lines: 1\n",
      s.base64(48),
      "\nPrivate-Lines: 1\n",
    );
    const privateLine = s.base64(48);
    const mac = s.chars(HEX, 64);
    const age = s.ageKey();
    const pem = s.pemBody(800, "MIIEpAIBAAKCAQEA");
    const text = `${putty}${privateLine}\nPrivate-MAC: ${mac}\n# created: 2024-03-14\n${age}\n-----BEGIN RSA PRIVATE KEY-----\n${pem}`;
    const r = redact(text);
    for (const secret of [privateLine, mac, age, ...pem.split("\n")]) expect(r.text).not.toContain(secret);
    expect(r.text.split("\n").length).toBe(text.split("\n").length);
  });
});

describe("issue 2: harmless text is left exactly as it is", () => {
  const LINES = [
    '"jsonwebtoken": "^9.0.2"',
    '"gpt-tokenizer": "4.0.0"',
    "tokenizers==0.15.2",
    '"max_tokens": 4096',
    "input_tokens=18234",
    '"tokenizer": "o200k_base"',
    "token: refreshed",
    "secretName: web-tls-cert",
    "TOKEN_TTL=3600",
    "Basic authentication failed",
  ];
  test.each(LINES)("%s", (line) => {
    expect(redact(line).text).toBe(line);
    expect(redact(`  ${line},\n`).text).toBe(`  ${line},\n`);
    expect(hasSecrets(line)).toBe(false);
  });
});

describe("issue 3: linear time on any line", () => {
  const cases: [string, string][] = [
    ["320 KB line of a.", "a.".repeat(160 * 1024)],
    ["1 MB line of a.", "a.".repeat(512 * 1024)],
    ["80 KB of -", "-".repeat(80 * 1024)],
    ["80 KB of .", ".".repeat(80 * 1024)],
    ["80 KB of a.", "a.".repeat(40 * 1024)],
    ["80 KB of =", "=".repeat(80 * 1024)],
    ["80 KB of :", ":".repeat(80 * 1024)],
    [
      "1 MB single line of JSON",
      JSON.stringify(Array.from({ length: 12000 }, (_, i) => ({ id: i, token_count: i * 3, key: `k${i}`, auth: "none" }))),
    ],
    ["1 MB of key=", "key=".repeat(256 * 1024)],
    ["1 MB of password=", "password=".repeat(116 * 1024)],
    ["1 MB of token: ", "token: ".repeat(150 * 1024)],
    ["1 MB of sk-", "sk-".repeat(350 * 1024)],
    ["1 MB of https://", "https://".repeat(128 * 1024)],
    ["1 MB of http://x@", "http://x@".repeat(116 * 1024)],
    ["1 MB of BEGIN lines", "-----BEGIN PRIVATE KEY-----\n".repeat(37 * 1024)],
    ["1 MB of Bearer", "Bearer ".repeat(150 * 1024)],
    ["1 MB of curl -u", "curl -u a:b ".repeat(87 * 1024)],
    ["1 MB of quoted keys", '"key":"'.repeat(150 * 1024)],
    ["1 MB of ghp_", "ghp_".repeat(256 * 1024)],
    ["1 MB of recovery-phrase words", `seed ${"abandon ability able ".repeat(50 * 1024)}`],
    ["1 MB of cookie", "cookie ".repeat(150 * 1024)],
    ["1 MB of CSV headers", "user,password\n".repeat(75 * 1024)],
    ["1 MB of MII", "MII".repeat(350 * 1024)],
    ["1 MB of AUTH", "AUTH ".repeat(200 * 1024)],
    ["1 MB of XML settings", '<add key="password" value="x" '.repeat(35 * 1024)],
    ["1 MB of sqlcmd -P", "sqlcmd -P ".repeat(100 * 1024)],
  ];
  // A quadratic (backtracking) pass over 1 MB takes minutes; a linear one well under a second on an
  // idle machine. The bound is loose so a loaded machine does not fail it; bench/redaction.ts times it.
  test.each(cases)("%s finishes in linear time (far under the minutes a backtracking pass takes)", (_what, text) => {
    const started = performance.now();
    const r = redact(text);
    hasSecrets(text);
    const ms = performance.now() - started;
    console.log(`${_what}: ${ms.toFixed(1)} ms`);
    expect(ms).toBeLessThan(10_000);
    expect(r.text.split("\n").length).toBe(text.split("\n").length);
  });
});
