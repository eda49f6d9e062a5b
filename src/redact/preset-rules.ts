/**
 * The maintained rule set: secretlint's recommended preset (@secretlint/secretlint-rule-preset-recommend),
 * run in-process through the rule API (`create(context).file(source)`). Updating the rules is updating
 * that package. Its rules scan whole files; here each rule only reads short windows around the places
 * where the automaton saw one of its literal hints, so a rule's regex never sees more than a bounded
 * stretch per hint and the pass stays linear. A rule added by a new preset version without an entry
 * in PRESET_RULES still runs (on the whole text) and the test suite names it, so its hints get added.
 *
 * Reports are narrowed to the secret itself: the value the rule reports rather than its whole match,
 * a URL's password rather than the URL, a PEM body rather than its BEGIN/END lines.
 */
import { rules as presetRules } from "@secretlint/secretlint-rule-preset-recommend";
import type { Detector } from "./detector.ts";
import { isReference } from "./harmless-values.ts";
import { BOUNDARY } from "./keyword-automaton.ts";
import { pemBody } from "./private-keys.ts";
import { createScanContext, RANK, type ScanContext } from "./scan-context.ts";

type Report = { message?: unknown; range?: readonly [number, number] | readonly number[] };
type RuleContext = {
  report(descriptor: Report): void;
  createTranslator(messages: unknown): (messageId: string, data?: Record<string, unknown>) => Translated;
  ignore(descriptor: unknown): void;
};
type Translated = { messageId: string; data: Record<string, unknown> };
type Source = { content: string; filePath?: string; ext: string; contentType: "text" };
type PresetRule = {
  meta: { id: string; type?: string };
  create(context: RuleContext, options: Record<string, unknown>): { file?(source: Source): void };
};

export type PresetEntry = {
  /** The kind a report gets, by message id or for the whole rule. */
  kind: string | Record<string, string>;
  /** Lower-case literals that every match of the rule contains (BOUNDARY: at a token start). */
  hints: readonly string[];
  /** Characters of context the window keeps before a hint (for patterns that start before it). */
  before?: number;
  /** Characters after the hint; a window never crosses a line unless multiline. */
  after?: number;
  multiline?: boolean;
  /** Message ids that are not secrets (an AWS account id). */
  ignore?: readonly string[];
};

/**
 * Every rule of the preset, by id. null: the rule does not apply to a text stream (it reads whole
 * .json/.p12 files, or it is a filter whose `secretlint-disable` comments must not switch redaction off).
 */
export const PRESET_RULES: Record<string, PresetEntry | null> = {
  "@secretlint/secretlint-rule-aws": {
    kind: { AWSAccessKeyID: "aws-access-key", AWSSecretAccessKey: "aws-secret-key" },
    hints: [
      ...["akia", "asia", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "a3t"].map((h) => BOUNDARY + h),
      "secret_access_key",
      "secretaccesskey",
      "secret_accesskey",
      "secretaccess_key",
    ],
    before: 40,
    ignore: ["AWSAccountID"],
  },
  "@secretlint/secretlint-rule-gcp": null,
  "@secretlint/secretlint-rule-privatekey": { kind: "private-key", hints: ["-----begin"], multiline: true, after: 16384 },
  "@secretlint/secretlint-rule-npm": {
    kind: { PackageJSON_xOauthToken: "github-token", Npmrc_authToken: "npm-token", NPM_ACCESS_TOKEN: "npm-token" },
    hints: ["npm_", "_authtoken", "x-oauth-basic"],
    before: 300,
  },
  "@secretlint/secretlint-rule-basicauth": { kind: "password", hints: [`${BOUNDARY}//`] },
  "@secretlint/secretlint-rule-slack": {
    kind: "slack-token",
    hints: ["xoxb-", "xoxp-", "xapp-", "xoxa-", "xoxo-", "xoxr-", "hooks.slack.com"],
    before: 16,
  },
  "@secretlint/secretlint-rule-sendgrid": { kind: "sendgrid-key", hints: [`${BOUNDARY}sg.`] },
  "@secretlint/secretlint-rule-shopify": { kind: "shopify-token", hints: ["shppa_", "shpca_", "shpat_", "shpss_"] },
  "@secretlint/secretlint-rule-stripe": { kind: "stripe-key", hints: ["sk_live_", "sk_test_", "rk_live_", "rk_test_"] },
  "@secretlint/secretlint-rule-github": { kind: "github-token", hints: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"] },
  "@secretlint/secretlint-rule-gitlab": { kind: "gitlab-token", hints: ["glpat-"] },
  "@secretlint/secretlint-rule-grafana": { kind: "grafana-token", hints: ["glc_", "glsa_"] },
  "@secretlint/secretlint-rule-openai": { kind: "api-key", hints: ["t3blbkfj"], before: 200 },
  "@secretlint/secretlint-rule-anthropic": { kind: "anthropic-key", hints: ["sk-ant-api0"] },
  "@secretlint/secretlint-rule-groq": { kind: "groq-key", hints: ["gsk_"] },
  "@secretlint/secretlint-rule-huggingface": { kind: "huggingface-token", hints: ["hf_"] },
  "@secretlint/secretlint-rule-linear": { kind: "linear-token", hints: ["lin_api_"] },
  "@secretlint/secretlint-rule-notion": { kind: "notion-token", hints: ["ntn_"] },
  "@secretlint/secretlint-rule-1password": { kind: "1password-token", hints: ["ops_ey"] },
  "@secretlint/secretlint-rule-database-connection-string": { kind: "password", hints: ["mongodb", "mysql", "postgres"] },
  "@secretlint/secretlint-rule-hashicorp-vault": { kind: "vault-token", hints: ["hvs.", "hvb.", "hvr."] },
  "@secretlint/secretlint-rule-vercel": { kind: "vercel-token", hints: ["vcp_", "vci_", "vca_", "vcr_", "vck_"] },
  "@secretlint/secretlint-rule-databricks": { kind: "databricks-token", hints: ["dapi"] },
  "@secretlint/secretlint-rule-docker": { kind: "docker-token", hints: ["dckr_pat_"] },
  "@secretlint/secretlint-rule-figma": { kind: "figma-token", hints: ["figd_"] },
  "@secretlint/secretlint-rule-cloudflare": { kind: "cloudflare-token", hints: ["cfk_", "cfut_", "cfat_"] },
  "@secretlint/secretlint-rule-tailscale": { kind: "tailscale-key", hints: ["tskey-"] },
  "@secretlint/secretlint-rule-filter-comments": null,
};

const DEFAULT_BEFORE = 64;
const DEFAULT_AFTER = 4096;

type Compiled = { id: string; entry: PresetEntry | undefined; file: (source: Source) => void };

/** The sink the rules report into; redaction is synchronous, so one module-level sink is enough. */
let sink: ((report: Report) => void) | null = null;

const ruleContext: RuleContext = {
  report(descriptor) {
    sink?.(descriptor);
  },
  createTranslator: () => (messageId, data) => ({ messageId, data: data ?? {} }),
  ignore() {},
};

function compile(): Compiled[] {
  const out: Compiled[] = [];
  for (const rule of presetRules as unknown as PresetRule[]) {
    const entry = PRESET_RULES[rule.meta.id];
    if (entry === null || (rule.meta.type !== undefined && rule.meta.type !== "scanner")) continue;
    const handlers = rule.create(ruleContext, {});
    if (handlers.file) out.push({ id: rule.meta.id, entry, file: handlers.file.bind(handlers) });
  }
  return out;
}

const COMPILED = compile();

/** Rule ids in the installed preset that PRESET_RULES does not list (they run over the whole text). */
export function unlistedPresetRules(): string[] {
  return (presetRules as unknown as PresetRule[]).map((r) => r.meta.id).filter((id) => !(id in PRESET_RULES));
}

function kindOf(entry: PresetEntry | undefined, id: string, messageId: string): string | null {
  if (entry === undefined) return id.replace(/^@secretlint\/secretlint-rule-/, "");
  if (entry.ignore?.includes(messageId)) return null;
  if (typeof entry.kind === "string") return entry.kind;
  return entry.kind[messageId] ?? Object.values(entry.kind)[0]!;
}

/** The part of a reported match that is the secret: [start, end) relative to the window. */
function narrow(window: string, range: readonly number[], data: Record<string, unknown>): [number, number] | null {
  let [start, end] = [range[0] ?? 0, range[1] ?? 0];
  // Prefer the reported value's own position (some rules report the range of the name before it).
  for (const v of Object.values(data)) {
    if (typeof v !== "string" || v.length < 6) continue;
    const at = window.indexOf(v, start);
    if (at !== -1 && at <= end) {
      [start, end] = [at, at + v.length];
      break;
    }
  }
  const found = window.slice(start, end);
  if (found.startsWith("-----BEGIN")) {
    const header = /^-----BEGIN [A-Z0-9 ]{0,60}-----/.exec(found);
    if (header === null) return null;
    const body = pemBody(createScanContext(window, false), start + header[0].length);
    return body && body[1] <= end ? body : null;
  }
  const url = /^([a-z][a-z0-9+.-]{0,30}:\/\/)([^\s/@]{0,512}@)?([^\s/?#]{0,512})/i.exec(found);
  if (url) {
    const userinfo = url[2];
    if (userinfo) {
      const colon = userinfo.indexOf(":");
      const from = start + url[1]!.length;
      // user:password -> the password; a user alone is itself the token.
      return colon === -1 ? [from, from + userinfo.length - 1] : [from + colon + 1, from + userinfo.length - 1];
    }
    // A URL that is itself a secret (a webhook): the host stays, the path goes.
    const pathStart = start + url[0].length;
    return pathStart < end ? [pathStart, end] : [start, end];
  }
  return [start, end];
}

function runRule(ctx: ScanContext, rule: Compiled, from: number, to: number): void {
  const window = ctx.text.slice(from, to);
  sink = (report) => {
    const message = report.message as Translated | undefined;
    const kind = kindOf(rule.entry, rule.id, message?.messageId ?? "");
    if (kind === null || !report.range) return;
    const span = narrow(window, report.range, message?.data ?? {});
    if (span === null || span[1] <= span[0]) return;
    const value = window.slice(span[0], span[1]).replace(/^["']|["']$/g, "");
    // GitHub's literal password for token-as-user URLs is not itself a secret.
    if (isReference(value) || value === "x-oauth-basic" || value.includes("[REDACTED:")) return;
    ctx.add(from + span[0], from + span[1], kind, RANK.format);
  };
  try {
    rule.file({ content: window, ext: "", contentType: "text" });
  } finally {
    sink = null;
  }
}

/** Per pass: for each rule, the windows to scan as [from, to) pairs, merged as hits arrive in order. */
function windows(ctx: ScanContext): Map<Compiled, number[]> {
  let w = ctx.state.get("preset.windows") as Map<Compiled, number[]> | undefined;
  if (w === undefined) {
    w = new Map();
    ctx.state.set("preset.windows", w);
  }
  return w;
}

function hasUserinfo(text: string, from: number): boolean {
  const limit = Math.min(text.length, from + 512);
  for (let i = from; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 64) return true;
    if (c === 47 || c <= 32 || c === 34 || c === 39) return false;
  }
  return false;
}

const RULES_BY_HINT = new Map<string, Compiled[]>();
for (const rule of COMPILED) {
  for (const hint of rule.entry?.hints ?? []) RULES_BY_HINT.set(hint, [...(RULES_BY_HINT.get(hint) ?? []), rule]);
}

export const presetRulesDetector: Detector = {
  name: "secretlint-preset",
  hints: [...RULES_BY_HINT.keys()],
  onHit(ctx, start, end, hint) {
    const text = ctx.text;
    // URL rules matter only when an @ comes before the URL's path.
    if (hint === `${BOUNDARY}//` && !hasUserinfo(text, end)) return;
    for (const rule of RULES_BY_HINT.get(hint) ?? []) {
      const entry = rule.entry!;
      const from = Math.max(entry.multiline ? 0 : ctx.lineStart(start), start - (entry.before ?? DEFAULT_BEFORE));
      const to = Math.min(entry.multiline ? text.length : ctx.lineEnd(start), end + (entry.after ?? DEFAULT_AFTER));
      const list = windows(ctx).get(rule) ?? [];
      const last = list.length - 1;
      if (last > 0 && from <= list[last]!) list[last] = Math.max(list[last]!, to);
      else list.push(from, to);
      windows(ctx).set(rule, list);
    }
  },
  finish(ctx) {
    for (const [rule, list] of windows(ctx)) {
      for (let i = 0; i < list.length; i += 2) {
        runRule(ctx, rule, list[i]!, list[i + 1]!);
        if (ctx.firstOnly && ctx.findings.length > 0) return;
      }
    }
    // A rule this table does not know yet reads the whole text (correct, slower; the tests flag it).
    for (const rule of COMPILED) {
      if (rule.entry === undefined && (!ctx.firstOnly || ctx.findings.length === 0)) runRule(ctx, rule, 0, ctx.text.length);
    }
  },
};
