/**
 * Secret redaction. Runs over every captured text before anything is persisted.
 * Line structure is kept (a redacted PEM block keeps its line count), so line numbers in
 * the store match the output the tool produced.
 */

type Rule = {
  kind: string;
  /** Cheap literal pre-check (lower-cased text is not needed: each literal is exact). */
  hint?: RegExp;
  pattern: RegExp;
  replace: (match: string, ...groups: string[]) => string;
};

const R = (kind: string) => `[REDACTED:${kind}]`;

const RULES: Rule[] = [
  {
    kind: "private-key",
    hint: /-----BEGIN /,
    pattern: /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----[\s\S]*?-----END \1-----/g,
    replace: (match, label) => {
      const newlines = (match.match(/\n/g) ?? []).length;
      if (newlines === 0) return `-----BEGIN ${label}-----${R("private-key")}-----END ${label}-----`;
      return `-----BEGIN ${label}-----\n${R("private-key")}${"\n".repeat(newlines - 1)}-----END ${label}-----`;
    },
  },
  { kind: "aws-access-key", hint: /A[KSBC][IC]A/, pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g, replace: () => R("aws-access-key") },
  {
    kind: "github-token",
    hint: /gh[pousr]_|github_pat_/,
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})\b/g,
    replace: () => R("github-token"),
  },
  { kind: "slack-token", hint: /xox/, pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g, replace: () => R("slack-token") },
  { kind: "google-api-key", hint: /AIza/, pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, replace: () => R("google-api-key") },
  { kind: "npm-token", hint: /npm_/, pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, replace: () => R("npm-token") },
  {
    kind: "api-key",
    hint: /[sr]k[-_]/,
    pattern: /\b(?:sk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{20,}|[sr]k_(?:live|test)_[A-Za-z0-9]{16,})/g,
    replace: () => R("api-key"),
  },
  { kind: "jwt", hint: /eyJ/, pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: () => R("jwt") },
  {
    kind: "bearer-token",
    hint: /[Bb]earer|[Bb]asic|[Tt]oken /,
    pattern: /\b(Bearer|Basic|Token)(\s+)[A-Za-z0-9._~+/-]{12,}=*/g,
    replace: (_m, scheme, space) => `${scheme}${space}${R("bearer-token")}`,
  },
  {
    kind: "url-credentials",
    hint: /:\/\//,
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)([^\s:@/'"]+):([^\s@/'"]+)@/gi,
    replace: (_m, scheme, user) => `${scheme}${user}:${R("password")}@`,
  },
  {
    // NAME=value, NAME: value, "name": "value" where NAME mentions a password, secret, token or key.
    kind: "assignment",
    pattern:
      /\b([A-Za-z0-9_.-]*(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH_?KEY|CLIENT_?SECRET)[A-Za-z0-9_.-]*)(["']?\s*[=:]\s*)(["']?)([^\s"'`,;)]{4,})/gi,
    replace: (match, name, sep, quote, value) => {
      // Leave code alone: member expressions, calls, references and already-redacted values.
      if (/^[A-Za-z_$][\w$]*(?:\.[\w$]+)+$/.test(value) || /[([{]/.test(value) || value.startsWith("$") || value.startsWith("[REDACTED"))
        return match;
      if (/^(?:true|false|null|undefined|none|required|optional|string|number)$/i.test(value)) return match;
      return `${name}${sep}${quote}${R("secret")}`;
    },
  },
];

export type Redaction = { text: string; count: number; kinds: Record<string, number> };

export function redact(input: string): Redaction {
  let text = input;
  let count = 0;
  const kinds: Record<string, number> = {};
  for (const rule of RULES) {
    if (rule.hint && !rule.hint.test(text)) continue;
    text = text.replace(rule.pattern, (...args: unknown[]) => {
      const match = args[0] as string;
      const end = args.findIndex((a) => typeof a === "number");
      const groups = args.slice(1, end).map((g) => (typeof g === "string" ? g : ""));
      const out = rule.replace(match, ...groups);
      if (out !== match) {
        count++;
        kinds[rule.kind] = (kinds[rule.kind] ?? 0) + 1;
      }
      return out;
    });
  }
  return { text, count, kinds };
}
