/**
 * Values that are not secrets even where the name says "password" or "token": references
 * (`${{ secrets.X }}`, `$VAR`, `process.env.X`), placeholders, status words, numbers, versions,
 * paths, code. And the randomness test used where the name alone proves little (`key=`, `sig=`).
 * Every check is a bounded scan of a value the caller has already cut to a bounded length.
 */
import type { KeyClass } from "./key-names.ts";

const STATUS_WORDS = new Set(
  (
    "true false yes no on off null nil none undefined nan empty required optional set unset enabled disabled hidden masked " +
    "redacted present missing invalid incorrect wrong expired refreshed revoked rotated changed reset updated saved ok valid " +
    "string str number int integer bool boolean any unknown object bytes buffer secret secretstr secretstring password passwd " +
    "token apikey key value text env auto default inherit prompt stdin file changeme example sample dummy placeholder test " +
    "xxx xxxx xxxxx xxxxxx xxxxxxxx your_password your_token yourpassword mypassword secret_value ask interactive keyring " +
    "anonymous basic bearer oauth oauth2 jwt none auth pass pwd user username admin root guest demo changeit"
  ).split(" "),
);

const VERSION = /^(?:[~^<>=!]{1,2}|v)?\d{1,9}(?:\.(?:\d{1,9}|[xX*])){0,3}(?:[-+][0-9A-Za-z.-]{1,40})?$/;
const HEX_LITERAL = /^0x[0-9a-fA-F]{1,16}$/;
const NUMBER = /^[+-]?\d[\d_,]{0,30}(?:\.\d{1,20})?(?:e[+-]?\d{1,3})?(?:ms|s|m|h|d|w|y|ns|us|kb|mb|gb|ki|mi|gi|kib|mib|gib|k|%)?$/i;
/** A placeholder in capitals: `API_KEY`, `MYTOKEN1`, `PASSWORD` (help texts and docs). */
const METAVAR = /^[A-Z]{2,}(?:[_.-][A-Z]+)*\d{0,2}$/;
/**
 * `$VAR`, `${VAR}`, `$(cmd)`: a variable's name is upper case, or lower-case words (`$db_pass`,
 * `$password1`, `$dbPass`). `$ecretP4ss` and `$Summer2024` are passwords that start with a dollar.
 */
const ENV_REFERENCE =
  /^\$(?:\{|\(|(?:[A-Z_][A-Z0-9_]{0,80}|[a-z_][a-z_]{0,80}\d{0,2}|[a-z]{1,20}(?:[A-Z][a-z]{1,20}){1,6})(?![^\s"'}),;]))/;
const TEMPLATE =
  /^(?:\{\{[^}\n]{0,200}\}\}|\{%[^%\n]{0,200}%\}|%[A-Za-z_][A-Za-z0-9_]{0,80}%|<[^<>\n]{1,80}>|#\{[^}\n]{1,200}\}|@[A-Za-z_][\w.]{0,80}@)/;
const CHAIN = /^(?:await |new |typeof |yield |!|\+\+|--|&(?:mut )?)?[A-Za-z_$][\w$]{0,80}(?:(?:\?\.|\.|::)#?[A-Za-z_$][\w$]{0,80}){0,12}/;

/**
 * An expression: a member chain (`req.headers.authorization`), a method call (`jwt.sign(payload,`),
 * a function call (`getKey(user)`: a name without digits), an indexing or a fallback.
 */
export function isCode(value: string): boolean {
  const m = CHAIN.exec(value);
  if (m === null) return false;
  const chain = m[0];
  const rest = value.slice(chain.length);
  const member = /[.:]/.test(chain) || /^(?:await|new|typeof|yield) /.test(chain);
  if (rest === "") return member;
  // A call: a name without digits (`getCookie(ctx, ...`, `Field(...)`) or a word-like one (`toUint8Array(`); `Sb3Gt(J9` is a password.
  if (rest.startsWith("(")) return member || /^[A-Za-z_$][A-Za-z_$]{2,}$/.test(chain) || wordLike(chain);
  if (rest.startsWith("[") || rest.startsWith("?.")) return true; // indexing (config['password'], line[pos:]), optional call
  return /^\s*(?:\?\?|\|\||&&|\+ |\? )/.test(rest);
}

/** Credential words inside an identifier used as a value (`password = user_password`): a variable, not its content. */
const CREDENTIAL_WORD = /pass|pwd|secret|token|key|auth|cred/i;

/** A literal that starts a tuple, list, object or call (`(self.username + ...`, `[listener.fileno(), ...]`). */
const OPENS_EXPRESSION =
  /^[([{](?:[\s"'`[({)\]}]|$|\.\.\.|-?\d{1,12}(?:\.\d{1,6})?\s*[,\])]|(?:new |await |not )?[A-Za-z_$][\w$]{0,40}(?:[.(,)\]:=!\s]|$))/;

/** An identifier made of words: vowels among its letters, at most one run of digits (`toUint8Array`, `win32api`). */
function wordLike(identifier: string): boolean {
  return identifier.length >= 3 && vowelShare(identifier) >= 0.3 && digitRuns(identifier) <= 1;
}

/**
 * Code that goes on after a name (minified or not): a member chain followed by anything
 * (`this._options.apiKey,`, `creds.access_token;if(`), or a word-like identifier followed by code
 * punctuation (`webhookSecret}`, `token=>{`, `bearerToken!==void 0`). A made-up string of letters
 * (`kQzfJ;x8`) is not word-like: few vowels.
 */
function startsCode(value: string): boolean {
  if (/^(?:class|function|async|await|new|typeof|void|yield|lambda)(?:$|[\s{(*])/.test(value)) return true;
  if (/^(?:null|undefined|true|false|none|nil|void 0)[;,)}\]]/i.test(value)) return true;
  const m = CHAIN.exec(value);
  if (m === null) return false;
  const chain = m[0];
  const rest = value.slice(chain.length);
  if (rest === "" || !/^[;,)}\]?!=<>&|+*/%^:"'`]/.test(rest)) return false;
  // A member chain with a word in it (`this.privateKey=`, `creds.access_token;`); `b.Ch=T=2uGw` is a password.
  if (/[.:]/.test(chain)) return !looksRandom(chain) && chain.split(/[.:?]+/).some((part) => wordLike(part.replace(/^#/, "")));
  // After a plain identifier, `=` alone would chain assignments; `==` and `=>` are code.
  if (rest.startsWith("=") && !/^=[=>]/.test(rest)) return false;
  // An identifier of words: camelCase or snake_case with vowels (`rawText`, `webhookSecret`, `REDACT`).
  return chain.length >= 4 && !/\d/.test(chain) && vowelShare(chain) >= 0.25 && /[a-z][A-Z_]|^[A-Z_]+$|^[a-z]+$/.test(chain);
}

/** A value that is an expression of code rather than a literal. */
export function looksLikeCode(value: string): boolean {
  return (isCode(value) || OPENS_EXPRESSION.test(value) || startsCode(value)) && !looksRandom(value);
}

/** printf or format-string placeholders: `%s:%s`, `%(user)s`, `{}`, `{0}`, `{name}`. */
const FORMAT_PLACEHOLDER = String.raw`%(?:\([A-Za-z_]\w{0,30}\))?[-+ #0]?\d{0,3}(?:\.\d{1,3})?[sdifxXr]|\{\d{0,2}\}|\{[a-z_]\w{0,30}(?:![rsa])?(?::[^{}]{0,20})?\}`;
const FORMAT_STRINGS = new RegExp(FORMAT_PLACEHOLDER, "g");
const FORMAT_STRING = new RegExp(FORMAT_PLACEHOLDER);

const PATH = /^(?:~?\/|\.{1,2}\/|[A-Za-z]:\\|\\\\)[^\s]{0,500}$/;
const FILE_NAME = /^[\w.-]{1,100}\.(?:json|ya?ml|txt|pem|key|crt|cer|env|toml|ini|conf|cfg|p12|pfx|jks|keystore|gpg|asc|pub|der)$/i;
const URL_NO_USERINFO = /^[a-z][a-z0-9+.-]{1,20}:\/\/[^\s@/]{1,300}(?:[/?#][^\s]{0,1000})?$/i;
const EMAIL = /^[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `str = Field(...)`, `Option<String>`, `&str`: a declaration's type, not its value. */
const TYPE_ANNOTATION =
  /^(?:str|string|String|bytes|int|bool|boolean|number|any|unknown|SecretStr|SecretString|SecretBytes|Secret|Optional|Option|Annotated|Union|Maybe|Nullable)(?:$|[\s=|,;)\]>?]|\[|<)|^&(?:mut )?[A-Za-z]|^[A-Z][A-Za-z0-9_]{0,60}<[A-Za-z]/;

/** A regular expression in a string (`"[A-Za-z0-9._~+/-]+=*"`, `^\\d{6}$`): a pattern for tokens, not one. */
function looksLikePattern(value: string): boolean {
  return /\[[^\]]{0,40}[A-Za-z0-9]-[A-Za-z0-9][^\]]{0,40}\][+*?{]|\\[dwsbDWS]|^\^.{0,200}\$$/.test(value);
}

/** `^9.0.2`, `>=1.2 <2`, `1.x || 2.x`, `==0.15.2`: every part is a version (a bare number is not). */
function isVersionRange(value: string): boolean {
  if (!/[.xX*]/.test(value) && !/^[~^<>=!]/.test(value)) return false;
  const parts = value
    .replace(/\|\||,/g, " ")
    .split(/\s+/)
    .filter((p) => p !== "" && p !== "-");
  return parts.length > 0 && parts.length <= 8 && parts.every((p) => VERSION.test(p));
}

const COUNTS = new Int32Array(65536);

/** Bits per character of the value's own character distribution. */
export function entropy(value: string): number {
  const n = value.length;
  for (let i = 0; i < n; i++) COUNTS[value.charCodeAt(i)]!++;
  let bits = 0;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    const k = COUNTS[c]!;
    if (k === 0) continue;
    const p = k / n;
    bits -= p * Math.log2(p);
    COUNTS[c] = 0;
  }
  return bits;
}

type Shape = { lower: number; upper: number; digit: number; other: number; space: number };

function shape(value: string): Shape {
  const s: Shape = { lower: 0, upper: 0, digit: 0, other: 0, space: 0 };
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 97 && c <= 122) s.lower++;
    else if (c >= 65 && c <= 90) s.upper++;
    else if (c >= 48 && c <= 57) s.digit++;
    else if (c === 32 || c === 9) s.space++;
    else s.other++;
  }
  return s;
}

/** Share of vowels among the letters: about 40% in words and identifiers, about 20% in random letters. */
function vowelShare(segment: string): number {
  let letters = 0;
  let vowels = 0;
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charCodeAt(i) | 32;
    if (c >= 97 && c <= 122) {
      letters++;
      if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) vowels++;
    }
  }
  return letters === 0 ? 0 : vowels / letters;
}

function digitRuns(segment: string): number {
  let runs = 0;
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charCodeAt(i);
    const prev = i > 0 ? segment.charCodeAt(i - 1) : 0;
    if (c >= 48 && c <= 57 && !(prev >= 48 && prev <= 57)) runs++;
  }
  return runs;
}

/**
 * A segment a generator made up rather than a word or an identifier: digits scattered among
 * letters, or (letters alone) long and poor in vowels. `toUint8Array`, `win32api` and
 * `loadConfigWithSource` are words; `aK3fP9qL`, a hex hash and base64 are not.
 */
function randomSegment(segment: string): boolean {
  if (segment.length < 8) return false;
  const s = shape(segment);
  const classes = (s.lower > 0 ? 1 : 0) + (s.upper > 0 ? 1 : 0) + (s.digit > 0 ? 1 : 0);
  if (classes < 2) return false;
  const vowels = vowelShare(segment);
  if (s.digit === 0 && (segment.length < 20 || vowels >= 0.3)) return false;
  if (s.digit > 0 && digitRuns(segment) <= 1 && vowels >= 0.3) return false;
  return entropy(segment) >= 2.5;
}

/**
 * True for machine-made strings (keys, signatures, base64): most of the value is random-looking
 * segments and the whole has high entropy. Words joined by `-` or `_`, UUIDs and hashes beside
 * words (`node-modules-3f2a...`) are not.
 */
export function looksRandom(value: string): boolean {
  if (value.length < 16 || value.length > 4096) return false;
  // Keys, signatures and base64 use few punctuation marks; code and prose use the others.
  if (/[^A-Za-z0-9+/=_.:~%-]/.test(value)) return false;
  if (UUID.test(value)) return false;
  const s = shape(value);
  if (s.space > 0) return false;
  let randomChars = 0;
  let from = 0;
  // Segments split at - _ . : , (not at / and +, which base64 is made of).
  for (let i = 0; i <= value.length; i++) {
    const c = i < value.length ? value.charCodeAt(i) : 45;
    if (c === 45 || c === 95 || c === 46 || c === 58 || c === 44) {
      if (randomSegment(value.slice(from, i))) randomChars += i - from;
      from = i + 1;
    }
  }
  return randomChars >= value.length * 0.7 && entropy(value) >= 3.2;
}

/** `Basic`/docker/npm `auth` values: base64 of `user:password`. */
export function decodesToUserPassword(value: string): boolean {
  if (value.length < 8 || value.length > 1024 || value.length % 4 === 1) return false;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  const decoded = Buffer.from(value, "base64").toString("latin1");
  const colon = decoded.indexOf(":");
  if (colon <= 0 || colon === decoded.length - 1) return false;
  for (let i = 0; i < decoded.length; i++) {
    const c = decoded.charCodeAt(i);
    if (c < 32 || c > 126) return false;
  }
  return true;
}

const SECRET_REFERENCE = /^[a-z][a-z0-9+.-]{1,15}:(?:\/\/)?[a-z0-9_.-]{1,64}(?:\/[a-z0-9_.-]{1,64}){1,8}(?:#[a-z0-9_.-]{1,64})?$/;

/** References, templates, placeholders and already-redacted values: never a secret in themselves. */
export function isReference(value: string): boolean {
  if (value.startsWith("[REDACTED")) return true;
  if (ENV_REFERENCE.test(value) || TEMPLATE.test(value)) return true;
  // Masked or elided values: ****, ..., xxxx, •••, AKIA..., sk_test_..., [MASKED], <hidden>.
  if (/^(?:\*{3,}|\.{3,}|x{3,}|X{3,}|•{3,}|…)|(?:\.{3}|…)$|^\[[A-Z][A-Z _-]{1,30}\]$/.test(value)) return true;
  // A secret manager's reference: `vault:secret/data/prod/db#password`, `awssm:prod/api-key`, `op://vault/item/field`.
  if (SECRET_REFERENCE.test(value)) return true;
  // A token format's prefix with a stand-in body: `sk_live_xxxxxxxx`, `ghp_XXXX...`, `xoxb-your-bot-token`.
  if (/^[A-Za-z0-9]{2,8}[_.-](?:[a-z]{2,6}_)?(?:([xX*0])\1{7,}|your[-_][a-z_-]{2,40})$/.test(value)) return true;
  // Environment lookups, and openssl's pass-phrase sources (`env:VAR`, `file:path`, `fd:3`).
  return /^(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|env\.|ENV\[|System\.getenv|secrets\.|vars\.|config\.|settings\.|env:|file:|fd:\d)/.test(
    value,
  );
}

function characterClasses(value: string): number {
  const s = shape(value);
  return (s.lower > 0 ? 1 : 0) + (s.upper > 0 ? 1 : 0) + (s.digit > 0 ? 1 : 0) + (s.other > 0 ? 1 : 0);
}

function isPlainWord(value: string): boolean {
  return /^[a-z]{1,24}$/.test(value);
}

/** `web-tls-cert`, `my_app_secret`, `Release Notes`: names made of words, not made-up strings. */
function isWordy(value: string): boolean {
  if (value.length > 80) return false;
  const parts = value.split(/[-_. /]+/).filter(Boolean);
  return (
    parts.length > 0 &&
    parts.every((p) => /^[A-Za-z][a-z]{0,15}(?:[A-Z][a-z]{1,15}){0,4}$|^[A-Za-z]{1,6}\d{1,3}[a-z]{0,10}$|^\d{1,4}$/.test(p)) &&
    /[a-z]/.test(value)
  );
}

/** Several words of prose (`must be at least 8 characters`), as a help text or an error shows after a name. */
function isProse(value: string): boolean {
  const words = value
    .replace(/\\[nrt]/g, " ")
    .split(/\s+/)
    .map((w) => w.replace(/^["'`(]+|["'`.,:;!?)]+$/g, ""))
    .filter(Boolean);
  if (words.length < 2) return false;
  return words.every((w) => /^[A-Za-z][A-Za-z']{0,20}$|^\d{1,6}$/.test(w));
}

export type ValueContext = {
  cls: KeyClass;
  /** The value was written in quotes: a deliberate string, not a word of prose. */
  quoted: boolean;
  /** Numbers are passwords only under a password-like name (`max_tokens: 4096` is not). */
  numbersAreSecret: boolean;
  /** Written `name = value` with spaces around the sign: code more often than an env file. */
  spaced?: boolean;
  /** Written where only a string can be (an env file's `NAME=value`, a YAML value): never code. */
  literal?: boolean;
  /** A call's argument after the name (`define('DB_PASSWORD', '...')`): may be a label, so prose is harmless. */
  label?: boolean;
};

export function isHarmlessValue(raw: string, ctx: ValueContext): boolean {
  const value = raw.trim();
  if (value.length === 0) return true;
  if (isReference(value)) return true;
  // Placeholders made of one repeated character (`0000...0001`, `xxxxxxxx`).
  if (value.length >= 8 && entropy(value) < 1.2) return true;
  // (`&str` is a type; where only a string can be, `&Sd09+$I` is a password.)
  if ((TYPE_ANNOTATION.test(value) && !(ctx.literal && /^&(?!(?:mut )?[A-Za-z_][\w<>]*$)/.test(value))) || looksLikePattern(value))
    return true;
  // A template that interpolates (`Basic ${Buffer.from(...)}`, `{{ .Values.token }}`): the secret is elsewhere.
  if (/\$\{|\{\{/.test(value)) return true;
  // Only escape sequences (`'\x00'`, a fuzzer's example): a byte, not a password.
  if (/^(?:\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\[0nrt])+$/.test(value)) return true;
  // A sentence that names the credential (`"Forgot your password?"`): a label, not the credential.
  if (
    /\s/.test(value) &&
    /\b(?:password|passphrase|token|secret|api key)\b/i.test(value) &&
    /^[A-Z]/.test(value) &&
    isWordy(value.replace(/[?.!:]+$/, ""))
  )
    return true;
  const lower = value.toLowerCase();
  if (STATUS_WORDS.has(lower)) return true;
  if (value === "{" || value === "[" || value === "{}" || value === "[]" || /^[[{]\s*["'{[\]}]/.test(value)) return true;
  if (METAVAR.test(value)) return true;
  if (isVersionRange(value) || HEX_LITERAL.test(value) || (NUMBER.test(value) && !ctx.numbersAreSecret)) return true;
  if (PATH.test(value) || FILE_NAME.test(value) || URL_NO_USERINFO.test(value) || EMAIL.test(value)) return true;
  if (/^(?:latest|next|stable|workspace:\S*|npm:\S+|file:\S+|link:\S+|git\+\S+|github:\S+|urn:\S+)$/.test(value)) return true;
  const code = !ctx.quoted && !(ctx.literal && !codeInLiteral(value));
  if (code && looksLikeCode(value)) return true;
  if (!ctx.quoted && /^(?:!{1,2}[01]|void)(?:$|[\s;,)}\]])/.test(value)) return true; // minified true, false, undefined
  if (FORMAT_STRING.test(value) && !/\d/.test(value.replace(FORMAT_STRINGS, ""))) return true;
  // In code (`name = value` with spaces), a bare identifier is a variable: `self.user, self.password = user, password`;
  // so is one that names a credential itself (`SigningSecret$`, `password_mgr`).
  if (
    !ctx.quoted &&
    ((/^[A-Za-z_][A-Za-z_]*$/.test(value) && ctx.spaced) || (/^[A-Za-z_$][\w$]*$/.test(value) && CREDENTIAL_WORD.test(value)))
  )
    return true;
  // A call in code (`name = decodeUtf8String(at, to)`): the value was cut at the space.
  if (!ctx.quoted && ctx.spaced && /^[A-Za-z_$][\w$.]*\(/.test(value)) return true;
  // TypeScript unions and types: `AccessToken | undefined`, `TokenIdentity | TokenIdentityProvider`.
  if (/^[A-Za-z_$][\w$.<>[\]]*(?:\s*\|\s*[A-Za-z_$"'][\w$.<>[\]"']*)+$/.test(value)) return true;
  // Type annotations and generics: `Option<String>`, `Secret<str>`.
  if (/^[A-Za-z_][\w.]{0,60}<[\w<>, &[\]]{1,80}>[?;,]?$/.test(value)) return true;
  if (ctx.cls === "password") {
    if ((!ctx.quoted || ctx.label) && isProse(value)) return true;
    if (ctx.label && isWordy(value)) return true; // __('Password', 'my-plugin'): a text domain
    return value.length < 3;
  }
  if (ctx.cls === "secret") {
    if (isPlainWord(value) || isWordy(value) || isProse(value)) return true;
    // Outside the alphabet of tokens (`1*tchar`, `<any CHAR>`), only a long mix of every kind of character is a secret.
    // A short one counts when it mixes all four kinds (`k9Xz!2mQ`).
    if (/[^A-Za-z0-9+/=_.~:-]/.test(value))
      return value.length < 12 ? value.length < 8 || characterClasses(value) < 4 || /\s/.test(value) : characterClasses(value) < 3;
    return value.length < 6;
  }
  // An object key or file path (`logs/2026/05/21/f9f741f2.gz`) and a name ending in a digest
  // (`node-cache-Linux-x64-npm-<sha256>`, a cache key): identifiers, not keys.
  if (OBJECT_PATH.test(value) || NAMED_DIGEST.test(value)) return true;
  return !looksRandom(value) && !(ctx.quoted && madeUp(value));
}

const OBJECT_PATH = /^[\w.-]{1,128}(?:\/[\w.-]{1,128}){1,16}\.[A-Za-z][A-Za-z0-9]{0,4}$/;
const NAMED_DIGEST = /^(?:[A-Za-z][A-Za-z0-9.]{0,30}-){2,12}[0-9a-f]{32,128}$/;

/**
 * Where a value can only be a string, a member chain is code only when it reads like one: an
 * object everyone names (`this.`, `config.`, `process.`...) or a credential's variable (`creds.token`).
 * `correct.horse.battery.staple` and `hunter2.Zeta` are passwords.
 */
function codeInLiteral(value: string): boolean {
  return (
    /^(?:this|self|cls|ctx|context|config|conf|cfg|settings|options|opts|props|params|args|env|process|os|req|request|res|app|window|global|globalThis|module|exports|secrets|vars|inputs|steps|needs|matrix)\b/.test(
      value,
    ) || /[.:](?:\w*(?:pass|pwd|secret|token|key|auth|cred)\w*)(?:\(|$)/i.test(value)
  );
}

/**
 * A quoted value a person or a generator made up, under a name that says "credential" only weakly
 * (`"key"`, `"auth"`, `"salt"`): long, no spaces, every kind of character, high entropy.
 */
function madeUp(value: string): boolean {
  if (value.length < 12 || value.length > 512 || /\s/.test(value)) return false;
  return characterClasses(value) >= 3 && /[^A-Za-z0-9]/.test(value) && entropy(value) >= 3.3 && !isWordy(value);
}
