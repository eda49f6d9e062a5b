/**
 * Credential formats that announce themselves with a literal prefix, for the services the
 * secretlint preset does not cover (or covers only in one exact length). Each entry follows the
 * issuer's published format: prefix, alphabet, length. A match is tried only where the automaton saw
 * the prefix at the start of a token, with a sticky, bounded pattern: linear on any input.
 *
 * To add a format: a kind, its case-sensitive prefixes, and a sticky pattern that starts with them.
 */

import { type Detector, isTokenChar } from "./detector.ts";
import { entropy } from "./harmless-values.ts";
import { BOUNDARY } from "./keyword-automaton.ts";
import { RANK, type ScanContext } from "./scan-context.ts";

export type TokenFormat = {
  kind: string;
  prefixes: readonly string[];
  /** Sticky; matches the whole token from its first character. */
  pattern: RegExp;
  /** The part after the prefix must mix letters and digits (or cases): keeps `sk-learn-...` style names out. */
  mixed?: boolean;
};

const END = "(?![A-Za-z0-9_-])";

function format(kind: string, prefixes: readonly string[], body: string, mixed = false): TokenFormat {
  return { kind, prefixes, pattern: new RegExp(body, "y"), mixed };
}

export const TOKEN_FORMATS: readonly TokenFormat[] = [
  format("anthropic-key", ["sk-ant-"], `sk-ant-[a-z]{2,8}\\d{2}-[A-Za-z0-9_-]{20,200}${END}`),
  format("api-key", ["sk-"], `sk-(?!ant-)[A-Za-z0-9_-]{20,200}${END}`, true),
  format("stripe-key", ["sk_live_", "sk_test_", "rk_live_", "rk_test_"], `[rs]k_(?:live|test)_[A-Za-z0-9]{16,247}${END}`),
  format("stripe-webhook-secret", ["whsec_"], `whsec_[A-Za-z0-9+/=]{24,100}${END}`),
  format(
    "aws-access-key",
    ["AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "A3T"],
    "(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}(?![A-Za-z0-9])",
  ),
  format("google-api-key", ["AIza"], `AIza[0-9A-Za-z_-]{35}${END}`),
  format("google-oauth-token", ["ya29."], `ya29\\.[0-9A-Za-z._-]{20,2048}${END}`),
  format("google-oauth-secret", ["GOCSPX-"], `GOCSPX-[0-9A-Za-z_-]{28}${END}`),
  format("google-refresh-token", ["1//0"], `1//0[0-9A-Za-z_-]{30,512}${END}`, true),
  format("github-token", ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], `gh[pousr]_[A-Za-z0-9]{30,255}${END}`),
  format("github-token", ["github_pat_"], `github_pat_[A-Za-z0-9_]{22,255}${END}`),
  format(
    "gitlab-token",
    ["glpat-", "gldt-", "glptt-", "glrt-", "glcbt-", "glimt-", "glagent-", "gloas-", "glsoat-", "glffct-", "glft-", "glsa-"],
    "gl(?:pat|dt|ptt|rt|cbt|imt|agent|oas|soat|ffct|ft|sa)-[0-9A-Za-z_-]{20,255}(?:\\.[0-9a-z]{2}\\.[0-9a-z]{5,20})?(?![A-Za-z0-9_-])",
  ),
  format("gitlab-token", ["GR1348941"], `GR1348941[0-9A-Za-z_-]{20,64}${END}`),
  format(
    "slack-token",
    ["xoxb-", "xoxp-", "xoxa-", "xoxo-", "xoxr-", "xoxs-", "xoxe-", "xapp-"],
    `(?:xox[abposre]|xapp)-[0-9A-Za-z-]{10,255}${END}`,
  ),
  format("slack-token", ["xoxe.xox"], `xoxe\\.xox[bp]-[0-9A-Za-z-]{10,255}${END}`),
  format("npm-token", ["npm_"], `npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])`),
  format("huggingface-token", ["api_org_"], `api_org_[A-Za-z0-9]{30,40}(?![A-Za-z0-9])`, true),
  format(
    "pypi-token",
    ["pypi-AgEIcHlwaS5vcmc", "pypi-AgENdGVzdC5weXBpLm9yZw"],
    `pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{40,400}${END}`,
  ),
  format("heroku-key", ["HRKU-"], `HRKU-[0-9A-Za-z_-]{20,128}${END}`),
  format("docker-token", ["dckr_pat_", "dckr_oat_"], `dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,100}${END}`),
  format("twilio-key", ["SK"], "SK[0-9a-fA-F]{32}(?![0-9A-Za-z])"),
  // SendGrid: `SG.` + 22 + `.` + 43 (base64url, so `-` and `_` anywhere); shorter test keys and a lower-cased copy too.
  format("sendgrid-key", ["SG."], `SG\\.[0-9A-Za-z_-]{16,40}\\.[0-9A-Za-z_-]{16,80}${END}`),
  format("sendgrid-key", ["sg."], `sg\\.[0-9A-Za-z_-]{22}\\.[0-9A-Za-z_-]{43}${END}`, true),
  format("sentry-token", ["sntrys_"], "sntrys_[A-Za-z0-9+/=_-]{40,400}(?![A-Za-z0-9+/=_-])"),
  format("sentry-token", ["sntryu_"], "sntryu_[0-9a-f]{64}(?![0-9A-Za-z])"),
  // 1Password account secret keys: A3-6-6-5-5-5-5, or with the two middle groups as one of 11.
  format(
    "1password-secret-key",
    ["A3-"],
    "A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{5,6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}(?:-[A-Z0-9]{5})?(?![A-Za-z0-9])",
  ),
  format("digitalocean-token", ["dop_v1_", "doo_v1_", "dor_v1_"], "do[opr]_v1_[0-9a-f]{64}(?![0-9A-Za-z])"),
  format("atlassian-token", ["ATATT3", "ATCTT3"], "AT[AC]TT3[A-Za-z0-9_=-]{60,400}(?![A-Za-z0-9_=-])"),
  format("bitbucket-token", ["ATBB"], "ATBB[A-Za-z0-9_=.-]{28,100}(?![A-Za-z0-9_=.-])", true),
  format("postman-key", ["PMAK-"], "PMAK-[0-9a-f]{24}-[0-9a-f]{34}(?![0-9A-Za-z])"),
  format(
    "doppler-token",
    ["dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."],
    "dp\\.(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9_-]{40,64}(?![A-Za-z0-9_-])",
  ),
  format("netlify-token", ["nfp_"], "nfp_[A-Za-z0-9]{36,48}(?![A-Za-z0-9])"),
  format("fly-token", ["fo1_"], `fo1_[A-Za-z0-9_-]{40,50}${END}`),
  format("fly-token", ["fm1r_", "fm1a_", "fm2_"], "fm(?:1[ar]|2)_[A-Za-z0-9+/=_-]{40,4096}(?![A-Za-z0-9+/=_-])"),
  format("pulumi-token", ["pul-"], "pul-[0-9a-f]{40}(?![0-9A-Za-z])"),
  format("planetscale-token", ["pscale_tkn_", "pscale_pw_", "pscale_oauth_"], `pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,64}${END}`),
  format("shippo-token", ["shippo_live_", "shippo_test_"], "shippo_(?:live|test)_[0-9a-f]{40}(?![0-9A-Za-z])"),
  // age identities: bech32 (upper case as age writes them, or lower case), X25519 and the post-quantum
  // hybrid (`-PQ-`), and plugin identities (`AGE-PLUGIN-YUBIKEY-1...`).
  format(
    "age-secret-key",
    ["AGE-SECRET-KEY-1", "AGE-SECRET-KEY-PQ-1", "AGE-PLUGIN-"],
    "(?:AGE-SECRET-KEY-(?:PQ-)?1[02-9AC-HJ-NP-Z]{58}|AGE-PLUGIN-[A-Z0-9]{1,30}-1[02-9AC-HJ-NP-Z]{10,600})(?![A-Za-z0-9])",
  ),
  format(
    "age-secret-key",
    ["age-secret-key-1", "age-secret-key-pq-1", "age-plugin-"],
    "(?:age-secret-key-(?:pq-)?1[02-9ac-hj-np-z]{58}|age-plugin-[a-z0-9]{1,30}-1[02-9ac-hj-np-z]{10,600})(?![A-Za-z0-9])",
  ),
  // secp256k1 keys: BIP32 extended private keys (base58, 111 characters) and Nostr's nsec (bech32).
  format(
    "private-key",
    ["xprv", "tprv", "yprv", "zprv", "uprv", "vprv", "Yprv", "Zprv", "Uprv", "Vprv"],
    "[xtyzuvYZUV]prv[1-9A-HJ-NP-Za-km-z]{100,112}(?![A-Za-z0-9])",
  ),
  format("private-key", ["nsec1"], "nsec1[02-9ac-hj-np-z]{58}(?![A-Za-z0-9])"),
  format("linear-token", ["lin_oauth_"], "lin_oauth_[A-Za-z0-9]{32,64}(?![A-Za-z0-9])"),
  format("mapbox-token", ["sk.eyJ"], "sk\\.eyJ[A-Za-z0-9_-]{20,400}\\.[A-Za-z0-9_-]{10,100}(?![A-Za-z0-9_-])"),
  format("newrelic-key", ["NRAK-", "NRJS-", "NRII-"], "NR(?:AK|JS|II)-[A-Z0-9]{19,32}(?![A-Za-z0-9])"),
  format("grafana-key", ["eyJrIjoi"], "eyJrIjoi[A-Za-z0-9+/]{30,400}={0,2}(?![A-Za-z0-9+/=])"),
  format("docker-config", ["eyJhdXRocyI6"], "eyJhdXRocyI6[A-Za-z0-9+/]{20,8192}={0,2}(?![A-Za-z0-9+/=])"),
  format("jwt", ["eyJ"], `eyJ[A-Za-z0-9_-]{8,4096}\\.[A-Za-z0-9_-]{8,16384}\\.[A-Za-z0-9_-]{0,4096}${END}`),
  format("jfrog-token", ["AKCp"], "AKCp[A-Za-z0-9]{60,80}(?![A-Za-z0-9])"),
  format("notion-token", ["secret_"], "secret_[A-Za-z0-9]{43}(?![A-Za-z0-9])", true),
  format("notion-token", ["ntn_"], "ntn_[A-Za-z0-9]{40,60}(?![A-Za-z0-9])", true),
  format(
    "square-token",
    ["sq0atp-", "sq0csp-", "EAAA"],
    `(?:sq0atp-[0-9A-Za-z_-]{22}|sq0csp-[0-9A-Za-z_-]{43}|EAAA[0-9A-Za-z_-]{60})${END}`,
    true,
  ),
  format("mailgun-key", ["key-"], "key-[0-9a-f]{32}(?![0-9A-Za-z])"),
  format("replicate-token", ["r8_"], "r8_[A-Za-z0-9]{37}(?![A-Za-z0-9])", true),
  format("perplexity-key", ["pplx-"], "pplx-[A-Za-z0-9]{48}(?![A-Za-z0-9])"),
  format("xai-key", ["xai-"], "xai-[A-Za-z0-9]{70,90}(?![A-Za-z0-9])"),
  format("supabase-token", ["sbp_", "sb_secret_"], "(?:sbp_[0-9a-f]{40}|sb_secret_[A-Za-z0-9_-]{20,64})(?![A-Za-z0-9_-])"),
  format("render-key", ["rnd_"], "rnd_[A-Za-z0-9]{32}(?![A-Za-z0-9])", true),
  format("cloudflare-origin-ca-key", ["v1.0-"], "v1\\.0-[0-9a-f]{24}-[0-9a-f]{146}(?![0-9A-Za-z])"),
  format("contentful-token", ["CFPAT-"], `CFPAT-[A-Za-z0-9_-]{43}${END}`),
  format("typeform-token", ["tfp_"], `tfp_[A-Za-z0-9_-]{40,64}${END}`, true),
  format("clickup-token", ["pk_"], "pk_\\d{5,12}_[A-Z0-9]{32}(?![A-Za-z0-9])"),
  format("vault-token", ["hvs.", "hvb.", "hvr."], `hv[sbr]\\.[A-Za-z0-9_-]{24,300}${END}`, true),
  format("huggingface-token", ["hf_"], "hf_[A-Za-z0-9]{30,40}(?![A-Za-z0-9])", true),
  format("1password-token", ["ops_eyJ"], "ops_eyJ[A-Za-z0-9+/=_-]{50,2000}(?![A-Za-z0-9+/=_-])"),
  format("tailscale-key", ["tskey-"], `tskey-[a-z]{2,20}-[0-9A-Za-z_-]{10,120}${END}`, true),
  format("alibaba-key", ["LTAI"], "LTAI[A-Za-z0-9]{20}(?![A-Za-z0-9])", true),
  format("clojars-token", ["CLOJARS_"], "CLOJARS_[a-z0-9]{60}(?![A-Za-z0-9])"),
  format("dropbox-token", ["sl."], `sl\\.[A-Za-z0-9_-]{130,152}${END}`),
  format("duffel-token", ["duffel_test_", "duffel_live_"], "duffel_(?:test|live)_[A-Za-z0-9_=-]{43}(?![A-Za-z0-9_=-])"),
  format("dynatrace-token", ["dt0c01."], "dt0c01\\.[A-Z0-9]{24}\\.[A-Za-z0-9]{64}(?![A-Za-z0-9])"),
  format("easypost-key", ["EZAK", "EZTK"], "EZ[AT]K[a-zA-Z0-9]{54}(?![A-Za-z0-9])"),
  format("facebook-token", ["EAAM", "EAAC"], "EAA[MC][A-Za-z0-9]{100,400}(?![A-Za-z0-9])"),
  format("flutterwave-key", ["FLWSECK_TEST-", "FLWSECK-"], "FLWSECK(?:_TEST)?-[a-h0-9]{32}-X(?![A-Za-z0-9])"),
  format("frameio-token", ["fio-u-"], "fio-u-[A-Za-z0-9_=-]{64}(?![A-Za-z0-9_=-])"),
  format("harness-token", ["pat."], "pat\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{20}(?![A-Za-z0-9])"),
  format("infracost-key", ["ico-"], "ico-[A-Za-z0-9]{32}(?![A-Za-z0-9])", true),
  format("intra42-secret", ["s-s4t2ud-", "s-s4t2af-"], "s-s4t2(?:ud|af)-[0-9a-f]{64}(?![A-Za-z0-9])"),
  format("octopus-key", ["API-"], "API-[A-Z0-9]{26}(?![A-Za-z0-9])", true),
  format("openshift-token", ["sha256~"], `sha256~[A-Za-z0-9_-]{43}${END}`),
  format(
    "plaid-token",
    ["access-sandbox-", "access-development-", "access-production-"],
    "access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![A-Za-z0-9])",
  ),
  format("prefect-key", ["pnu_"], "pnu_[A-Za-z0-9]{36}(?![A-Za-z0-9])", true),
  format("readme-key", ["rdme_"], "rdme_[a-z0-9]{70}(?![A-Za-z0-9])"),
  format("rubygems-key", ["rubygems_"], "rubygems_[a-f0-9]{48}(?![A-Za-z0-9])"),
  format("scalingo-token", ["tk-us-"], `tk-us-[A-Za-z0-9_-]{48}${END}`),
  format("sendinblue-key", ["xkeysib-", "xsmtpsib-"], "x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}(?![A-Za-z0-9])"),
  format("settlemint-token", ["sm_pat_", "sm_aat_", "sm_sat_"], "sm_(?:pat|aat|sat)_[A-Za-z0-9]{16}(?![A-Za-z0-9])", true),
  format("sourcegraph-token", ["sgp_"], "sgp_(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}(?![A-Za-z0-9])"),
  format(
    "yandex-key",
    ["AQVN", "YC", "t1."],
    `(?:AQVN[A-Za-z0-9_-]{35,38}|YC[A-Za-z0-9_-]{38}|t1\\.[A-Za-z0-9_-]{10,60}={0,2}\\.[A-Za-z0-9_-]{86}={0,2})${END}`,
    true,
  ),
  format("artifactory-token", ["cmVmdGtu"], "cmVmdGtu[A-Za-z0-9]{56}(?![A-Za-z0-9])"),
  // From TruffleHog's detectors (pkg/detectors, AGPL: formats only, as facts): Tencent, Resend, Asana.
  format("tencent-key", ["AKID"], "AKID[A-Za-z0-9]{32}(?![A-Za-z0-9])", true),
  format("resend-key", ["re_"], "re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}(?![A-Za-z0-9_])", true),
  format("asana-token", ["0/", "1/", "2/"], "[0-2]/[0-9]{16}/[0-9]{16}:[0-9a-f]{32}(?![A-Za-z0-9])"),
  // gitleaks' vault-service-token: the legacy `s.` service token (24 characters, letters and digits mixed).
  format("vault-token", ["s."], "s\\.[A-Za-z0-9]{24}(?![A-Za-z0-9_.-])", true),
  // Braintree access tokens and the Firebase Cloud Messaging legacy server key, as their issuers print them.
  format("braintree-token", ["access_token$"], "access_token\\$(?:production|sandbox)\\$[0-9a-z]{16}\\$[0-9a-f]{32}(?![A-Za-z0-9])"),
  format("fcm-server-key", ["AAAA"], `AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,200}${END}`),
  format("gocardless-token", ["live_"], "live_[A-Za-z0-9_=-]{40}(?![A-Za-z0-9_=-])", true),
];

/** The part of a token after its prefix mixes cases or letters and digits. */
function mixed(s: string): boolean {
  let lower = false;
  let upper = false;
  let digit = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 97 && c <= 122) lower = true;
    else if (c >= 65 && c <= 90) upper = true;
    else if (c >= 48 && c <= 57) digit = true;
  }
  return (lower ? 1 : 0) + (upper ? 1 : 0) + (digit ? 1 : 0) >= 2 && digit;
}

/** `sk_live_xxxxxxxx`, `ghp_XXXX...`, `xoxb-your-bot-token`: documentation's stand-ins, not tokens. */
function placeholder(body: string): boolean {
  return (body.length >= 8 && entropy(body) < 1.2) || (!/\d/.test(body) && /^(?:[a-z]{2,12}[-_]){1,6}[a-z]{2,12}$/.test(body));
}

function byHint(): Map<string, { format: TokenFormat; prefix: string }[]> {
  const map = new Map<string, { format: TokenFormat; prefix: string }[]>();
  for (const f of TOKEN_FORMATS) {
    for (const prefix of f.prefixes) {
      const hint = BOUNDARY + prefix.toLowerCase();
      map.set(hint, [...(map.get(hint) ?? []), { format: f, prefix }]);
    }
  }
  return map;
}

const HINTS = byHint();

/** Formats whose literal marker sits inside the token: the match starts `back` characters before the marker. */
type InfixFormat = { kind: string; hint: string; marker: string; back: number; pattern: RegExp };

const INFIX_FORMATS: readonly InfixFormat[] = [
  // Azure AD (Entra) client secrets: 3 characters, a digit, `Q~`, 31-34 more.
  {
    kind: "azure-client-secret",
    hint: "q~",
    marker: "Q~",
    back: 4,
    pattern: /[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~-]|\.[A-Za-z0-9_~-])/y,
  },
  // Terraform Cloud / HCP: 14 characters, `.atlasv1.`, 60-70 more.
  {
    kind: "terraform-token",
    hint: ".atlasv1.",
    marker: ".atlasv1.",
    back: 14,
    pattern: /[a-z0-9]{14}\.atlasv1\.[a-z0-9_=-]{60,70}(?![A-Za-z0-9_=-])/y,
  },
  // Mailchimp: 32 hex, `-us`, the data centre number.
  { kind: "mailchimp-key", hint: "-us", marker: "-us", back: 32, pattern: /[0-9a-f]{32}-us\d{1,2}(?![A-Za-z0-9])/y },
];

function isSecretChar(code: number): boolean {
  return isTokenChar(code) || code === 95 || code === 126 || code === 46 || code === 45;
}

function onInfix(ctx: ScanContext, start: number, format: InfixFormat): void {
  const text = ctx.text;
  const from = start - format.back;
  if (from < 0 || !text.startsWith(format.marker, start) || (from > 0 && isSecretChar(text.charCodeAt(from - 1)))) return;
  format.pattern.lastIndex = from;
  const m = format.pattern.exec(text);
  if (m !== null && (format.kind !== "azure-client-secret" || mixed(m[0]))) ctx.add(from, from + m[0].length, format.kind, RANK.format);
}

const INFIX_BY_HINT = new Map(INFIX_FORMATS.map((f) => [f.hint, f]));

export const tokenFormats: Detector = {
  name: "token-formats",
  hints: [...HINTS.keys(), ...INFIX_BY_HINT.keys()],
  onHit(ctx, start, _end, hint) {
    const text = ctx.text;
    const infix = INFIX_BY_HINT.get(hint);
    if (infix !== undefined) {
      onInfix(ctx, start, infix);
      return;
    }
    for (const { format: f, prefix } of HINTS.get(hint) ?? []) {
      if (!text.startsWith(prefix, start)) continue; // the automaton folds case; formats do not
      f.pattern.lastIndex = start;
      const m = f.pattern.exec(text);
      if (m === null) continue;
      const end = start + m[0].length;
      if (f.mixed && !mixed(m[0].slice(prefix.length))) continue;
      if (placeholder(m[0].slice(prefix.length))) return;
      ctx.add(start, end, f.kind, RANK.format);
      return;
    }
  },
};
