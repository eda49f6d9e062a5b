/**
 * The secret corpus: realistic credentials of many kinds (shapes from secret-shapes.ts), each in
 * the places they turn up in tool output: bare in a log line, as a JSON or YAML value, in env files,
 * headers, URLs and command lines. A case lists the values that must not survive redaction.
 */
import { contextCases } from "./secret-context-cases.ts";
import { hardeningCases } from "./secret-hardening-cases.ts";
import { keyCases } from "./secret-key-cases.ts";
import { ALNUM, B64URL, BASE32, BASE62, createShapes, HEX, LETTERS, LOWER, type Shapes, UPPER_ALNUM } from "./secret-shapes.ts";

export type SecretCase = { kind: string; text: string; secrets: string[] };

type Make = (s: Shapes) => string;

/** Contexts with no credential word: only the token's own format can give it away. */
const NEUTRAL: ((v: string, s: Shapes) => string)[] = [
  (v, s) => `2024-03-14T09:${String(s.int(60)).padStart(2, "0")}:12.481Z INFO worker-3 using ${v} for upstream requests`,
  (v) => v,
  (v) => `    "value": "${v}",`,
  (v) => `  - ${v}`,
  (v) => `copied ${v} to the clipboard`,
  (v) => `ENTRY=${v}`,
];

/** Contexts where a credential word names the value. */
const NAMED: ((v: string, s: Shapes) => string)[] = [
  (v) => `export SERVICE_TOKEN=${v}`,
  (v) => `  "apiKey": "${v}",`,
  (v) => `api_key: ${v}`,
  (v) => `curl -s -H "Authorization: Bearer ${v}" https://api.example.com/v1/me`,
  (v) => `SECRET=${v} ./deploy.sh`,
];

/** What must disappear of a generated value: all of it, except the public part of a webhook URL (scheme, host). */
function secretPart(v: string): string {
  return v.replace(/^https:\/\/[^/]+\/[a-z]+\//, "");
}

/** A token format: three neutral contexts and one named. */
function formatCases(kind: string, make: Make, s: Shapes): SecretCase[] {
  const cases: SecretCase[] = [];
  const neutral = [...NEUTRAL].sort(() => s.next() - 0.5).slice(0, 3);
  for (const ctx of neutral) {
    const v = make(s);
    cases.push({ kind, text: ctx(v, s), secrets: [secretPart(v)] });
  }
  const v = make(s);
  cases.push({ kind, text: s.pick(NAMED)(v, s), secrets: [secretPart(v)] });
  return cases;
}

const FORMATS: [string, Make][] = [
  ["aws-access-key", (s) => s.pick(["AKIA", "ASIA"]) + s.chars(BASE32, 16)],
  ["github-classic-token", (s) => s.githubToken(s.pick(["ghp_", "gho_", "ghu_", "ghr_"]))],
  ["github-app-token", (s) => s.githubToken("ghs_")],
  ["github-fine-grained-pat", (s) => `github_pat_11${s.chars(UPPER_ALNUM, 20)}_${s.chars(BASE62, 59)}`],
  ["gitlab-pat", (s) => `glpat-${s.mixed(`${ALNUM}_-`, 20)}`],
  ["gitlab-deploy-token", (s) => `gldt-${s.mixed(`${ALNUM}_-`, 20)}`],
  ["gitlab-runner-token", (s) => `${s.pick(["glrt-", "glptt-"])}${s.mixed(`${ALNUM}_-`, 20)}`],
  ["slack-bot-token", (s) => `xoxb-${s.chars("0123456789", 12)}-${s.chars("0123456789", 13)}-${s.chars(ALNUM, 24)}`],
  [
    "slack-user-token",
    (s) => `xoxp-${s.chars("0123456789", 12)}-${s.chars("0123456789", 12)}-${s.chars("0123456789", 13)}-${s.chars(HEX, 32)}`,
  ],
  ["slack-app-token", (s) => `xapp-1-A${s.chars(UPPER_ALNUM, 10)}-${s.chars("0123456789", 13)}-${s.chars(HEX, 64)}`],
  [
    "slack-webhook",
    (s) => `https://hooks.slack.com/services/T${s.chars(UPPER_ALNUM, 9)}/B${s.chars(UPPER_ALNUM, 11)}/${s.chars(ALNUM, 24)}`,
  ],
  ["stripe-secret-key", (s) => `${s.pick(["sk_live_", "rk_live_", "sk_test_"])}${s.mixed(ALNUM, s.pick([24, 99]))}`],
  ["stripe-webhook-secret", (s) => `whsec_${s.mixed(ALNUM, 32)}`],
  ["google-api-key", (s) => `AIza${s.chars(`${ALNUM}_-`, 34)}${s.pick(["-", "_", "Q", "7"])}`],
  ["google-oauth-token", (s) => `ya29.${s.mixed(`${ALNUM}_-`, 150)}`],
  ["google-client-secret", (s) => `GOCSPX-${s.mixed(`${ALNUM}_-`, 28)}`],
  ["openai-key", (s) => `sk-${s.pick(["proj-", "svcacct-", ""])}${s.chars(B64URL, 74)}T3BlbkFJ${s.chars(B64URL, 74)}`],
  ["openai-legacy-key", (s) => `sk-${s.chars(ALNUM, 20)}T3BlbkFJ${s.chars(ALNUM, 20)}`],
  ["anthropic-key", (s) => `sk-ant-${s.pick(["api03", "admin01"])}-${s.chars(B64URL, 93)}AA`],
  ["npm-token", (s) => s.npmToken()],
  ["pypi-token", (s) => `pypi-AgEIcHlwaS5vcmc${s.base64url(110)}`],
  ["huggingface-token", (s) => `hf_${s.mixed(LETTERS, 34)}`],
  ["databricks-token", (s) => `dapi${s.chars(HEX, 32)}${s.pick(["", "-2"])}`],
  ["vault-token", (s) => `hvs.CAESI${s.chars(B64URL, 86)}`],
  ["tailscale-key", (s) => `tskey-${s.pick(["auth", "api", "client"])}-k${s.mixed(ALNUM, 11)}-${s.mixed(ALNUM, 33)}`],
  ["vercel-token", (s) => `${s.pick(["vcp_", "vci_", "vca_"])}${s.mixed(ALNUM, 56)}`],
  ["shopify-token", (s) => `${s.pick(["shpat_", "shpca_", "shppa_", "shpss_"])}${s.chars(HEX, 32)}`],
  ["grafana-service-account-token", (s) => `glsa_${s.mixed(ALNUM, 32)}_${s.chars(HEX, 8)}`],
  ["grafana-cloud-token", (s) => `glc_eyJvIjoi${s.base64(90).replace(/=+$/, "")}`],
  ["linear-key", (s) => `lin_api_${s.mixed(ALNUM, 40)}`],
  ["1password-service-token", (s) => `ops_${onePasswordPayload(s)}`],
  ["1password-secret-key", (s) => `A3-${[6, 6, 5, 5, 5, 5].map((n) => s.chars(UPPER_ALNUM, n)).join("-")}`],
  ["sendgrid-key", (s) => `SG.${s.chars(`${ALNUM}_-`, 22)}.${s.chars(`${ALNUM}_-`, 43)}`],
  ["twilio-api-key", (s) => `SK${s.chars(HEX, 32)}`],
  ["heroku-key", (s) => `HRKU-AA${s.mixed(`${ALNUM}_-`, 58)}`],
  ["docker-hub-token", (s) => `dckr_pat_${s.mixed(`${ALNUM}_-`, 27)}`],
  ["digitalocean-token", (s) => `dop_v1_${s.chars(HEX, 64)}`],
  ["sentry-auth-token", (s) => `sntrys_eyJpYXQiOjE3MTA0${s.base64(60).replace(/=+$/, "")}_${s.chars(`${ALNUM}_-`, 43)}`],
  ["atlassian-token", (s) => `ATATT3xFfGF0${s.chars(`${ALNUM}_-`, 171)}=${s.chars(HEX.toUpperCase(), 8)}`],
  ["postman-key", (s) => `PMAK-${s.chars(HEX, 24)}-${s.chars(HEX, 34)}`],
  ["doppler-token", (s) => `dp.${s.pick(["pt", "st", "sa"])}.${s.mixed(ALNUM, 43)}`],
  ["pulumi-token", (s) => `pul-${s.chars(HEX, 40)}`],
  ["planetscale-token", (s) => `pscale_tkn_${s.mixed(`${ALNUM}_`, 43)}`],
  ["fly-token", (s) => `fo1_${s.mixed(`${ALNUM}_-`, 43)}`],
  ["netlify-token", (s) => `nfp_${s.mixed(ALNUM, 36)}`],
  ["mailgun-key", (s) => `key-${s.chars(HEX, 32)}`],
  ["newrelic-key", (s) => `NRAK-${s.chars(UPPER_ALNUM, 27)}`],
  ["figma-token", (s) => `figd_${s.mixed(`${ALNUM}_-`, 40)}`],
  ["cloudflare-token", (s) => `cfat_${s.mixed(ALNUM, 40)}${s.chars(HEX, 8)}`],
  ["groq-key", (s) => `gsk_${s.mixed(ALNUM, 52)}`],
  ["notion-token", (s) => `ntn_${s.chars("0123456789", 11)}${s.mixed(ALNUM, 35)}`],
  ["perplexity-key", (s) => `pplx-${s.mixed(ALNUM, 48)}`],
  ["replicate-token", (s) => `r8_${s.mixed(ALNUM, 37)}`],
  ["azure-ad-client-secret", (s) => `${s.chars(ALNUM, 3)}${s.int(10)}Q~${s.mixed(`${ALNUM}_~.-`, 34)}`],
  ["age-secret-key", (s) => s.ageKey()],
  ["jwt", (s) => s.jwt()],
];

function onePasswordPayload(s: Shapes): string {
  // Service account tokens are base64 of a JSON object; pad it so the encoding ends in "fQ" like real ones.
  let json = JSON.stringify({
    signInAddress: "my.1password.com",
    userAuth: { method: "SRPg-4096", alg: "PBES2g-HS256", iterations: 650000, salt: s.base64url(16) },
    email: `${s.chars(LOWER, 10)}@1passwordserviceaccounts.com`,
    srpX: s.chars(HEX, 64),
    muk: { alg: "A256GCM", ext: true, k: s.base64url(32), key_ops: ["encrypt", "decrypt"], kty: "oct", kid: "mp" },
    secretKey: `A3-${s.chars(UPPER_ALNUM, 6)}`,
    deviceUuid: s.chars(LOWER, 26),
  });
  while (json.length % 3 !== 1) json = json.replace(/}$/, " }");
  return Buffer.from(json).toString("base64");
}

/** Every case of the corpus for a seed (print the seed: the corpus is reproducible from it). */
export function secretCases(seed: number): SecretCase[] {
  const s = createShapes(seed);
  const cases: SecretCase[] = [];
  for (const [kind, make] of FORMATS) cases.push(...formatCases(kind, make, s));
  cases.push(...contextCases(s), ...keyCases(s), ...hardeningCases(s));
  return cases;
}

/** The parts of a secret a leak check looks for: the whole, and its head, middle and tail (a partial redaction leaks). */
export function leakProbes(secret: string): string[] {
  if (secret.length < 16) return [secret];
  const mid = Math.floor(secret.length / 2) - 6;
  return [secret, secret.slice(0, 12), secret.slice(mid, mid + 12), secret.slice(-12)];
}

/** The case's secrets that survive in `redacted`. */
export function leaked(c: SecretCase, redacted: string): string[] {
  return c.secrets.filter((secret) => secret.length >= 4 && leakProbes(secret).some((p) => redacted.includes(p)));
}
