/**
 * Decides whether the name in `NAME = value` (env, YAML, JSON, a CLI flag, a header) says its value
 * is a credential. Names are split into words (snake, kebab, dotted, camelCase), so `tokenizer`,
 * `max_tokens`, `secretName` and `TOKEN_TTL` are told apart from `token`, `api_key` and `DB_PASS`.
 *
 * - password: any value but a reference, placeholder or status word is a password.
 * - secret: as password, but single plain words and names (`web-tls-cert`) are left alone.
 * - weak: the word alone says little (`key`, `auth`, `sig`): the value must look random.
 */

export type KeyClass = "password" | "secret" | "weak";
export type KeyVerdict = {
  cls: KeyClass;
  kind: string;
  numbersAreSecret: boolean;
  /** `sig`/`signature` alone: a credential in a query string (`&sig=`, `X-Amz-Signature=`), a checksum elsewhere. */
  queryOnly: boolean;
  /** The name has the word `auth` (docker, npm `_auth`): base64 of `user:password` is its value. */
  auth: boolean;
  /** A wallet's recovery phrase (`mnemonic`, `seed_phrase`): a dozen plain words are the secret. */
  phrase: boolean;
};

const PASSWORD_WORDS = new Set(["password", "passwd", "passphrase", "passcode", "pass", "pwd", "sshpass"]);
const SECRET_WORDS = new Set(["secret", "token", "apikey", "privatekey", "accesskey", "secretkey", "authtoken", "accesstoken"]);
/** Word pairs that make a secret name together. */
const SECRET_PAIRS = [
  ["api", "key"],
  ["private", "key"],
  ["access", "key"],
] as const;
const WEAK_WORDS = new Set([
  "key",
  "auth",
  "sig",
  "signature",
  "credential",
  "credentials",
  "cred",
  "creds",
  // Secret material under names that say little alone: the value must look made up.
  "private",
  "access",
  "hmac",
  "salt",
  "pepper",
  "seed",
  "otp",
  "totp",
  "mfa",
  "cookie",
  // A personal access token (`AZURE_DEVOPS_EXT_PAT`), a Wi-Fi pre-shared key.
  "pat",
  "psk",
]);
/** Names of a wallet's recovery phrase. */
const PHRASE_WORDS = new Set(["mnemonic", "mnemonics", "seedphrase"]);
const PHRASE_PAIRS = [
  ["seed", "phrase"],
  ["recovery", "phrase"],
  ["secret", "phrase"],
  ["backup", "phrase"],
] as const;
/** A last word that makes the name describe a secret instead of holding one. */
const DESCRIBING_LAST = new Set(
  (
    "name names ref refs file files path paths dir url uri urls endpoint type types kind mode id ids arn env var vars field fields " +
    "length len size count ttl timeout expiry expires expiration exp lifetime age limit limits tokens used usage header headers " +
    "prefix suffix format version policy provider source store manager method methods algorithm alg scheme enabled required " +
    "optional hint label description help template placeholder pattern regex rotation created updated at status state location " +
    "region host port user username login email owner issuer audience scope scopes callback redirect handler loader generator " +
    "validator service backend engine budget window rate stdin prompt command cmd min max encoding reset changed valid invalid " +
    "hash hashes hashed digest fingerprint checksum length policy secrets keys endpoint server index store mount volume config " +
    "configs settings options option metadata annotation annotations namespace selector secretkeyref keyref flag flags test tests " +
    "schema schemas class model interface struct enum error errors exception spec props params response request payload factory " +
    "builder client helper util utils module column table mgr cb fn func getter setter hook check checker verifier hasher " +
    "encoder decoder input dialog widget box entry form encryption encrypted strength complexity stmt statement range " +
    "output outputs cache param record records event events identity expired expiry ms secs seconds sec minutes hours days bytes " +
    "json yaml yml txt toml xml ini cfg conf lock md js ts html csv"
  ).split(" "),
);
/** A word before `key` that makes it something other than a credential. */
const NOT_CREDENTIAL_KEY = new Set(
  (
    "public publishable socket websocket cache primary foreign sort partition idempotency object row routing shard sharding dedupe dedup lookup " +
    "map translation i18n react hot ssh gpg pgp host known authorized unique composite index cursor group event message query " +
    "bucket s3 blob file list dict hash node item entity composite natural surrogate feature flag config setting env"
  ).split(" "),
);
/** Compounds ending in `key` that name a credential (`monkey` and `hotkey` do not). */
const CREDENTIAL_KEY_COMPOUNDS = new Set([
  "account",
  "master",
  "signing",
  "encryption",
  "shared",
  "session",
  "app",
  "license",
  "client",
  "subscription",
]);

/** Splits `DB_PASSWORD`, `clientSecret`, `x-api-key`, `spring.datasource.password` into lower-case words. */
/** A word that, written before `key` (`public key:`, `host key:`), says the key is not a credential. */
export function qualifiesKeyAsHarmless(word: string): boolean {
  return NOT_CREDENTIAL_KEY.has(word.toLowerCase());
}

export function splitWords(name: string): string[] {
  const words: string[] = [];
  let word = "";
  let prev = 0; // 0 other, 1 lower or digit, 2 upper
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const upper = c >= 65 && c <= 90;
    const lower = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    if (!upper && !lower) {
      if (word) words.push(word);
      word = "";
      prev = 0;
      continue;
    }
    // camelCase: a capital after a lower-case letter starts a word; so does the last capital of an
    // acronym followed by lower case (`APIKey` -> api, key).
    const nextLower = i + 1 < name.length && name.charCodeAt(i + 1) >= 97 && name.charCodeAt(i + 1) <= 122;
    if (upper && word && (prev === 1 || (prev === 2 && nextLower))) {
      words.push(word);
      word = "";
    }
    word += String.fromCharCode(upper ? c + 32 : c);
    prev = upper ? 2 : 1;
  }
  if (word) words.push(word);
  return words;
}

function endsWithAny(word: string, suffixes: readonly string[]): boolean {
  return suffixes.some((s) => word.length > s.length && word.endsWith(s));
}

/** Names repeat (JSON keys, env names): the verdicts are cached, the cache emptied when it grows large. */
const VERDICTS = new Map<string, KeyVerdict | null>();

/** Whether the name holds a credential, and the kind a redacted value gets. */
export function classifyKey(name: string): KeyVerdict | null {
  let verdict = VERDICTS.get(name);
  if (verdict === undefined) {
    if (VERDICTS.size > 4096) VERDICTS.clear();
    verdict = verdictFor(name);
    VERDICTS.set(name, verdict);
  }
  return verdict;
}

function verdictFor(name: string): KeyVerdict | null {
  const words = splitWords(name);
  const cls = keyClass(words);
  if (cls === null) return null;
  const last = words.at(-1)!;
  const kind =
    cls === "password"
      ? "password"
      : words.some((w) => w === "token" || w.endsWith("token"))
        ? "token"
        : words.includes("apikey") || words.join("_").includes("api_key")
          ? "api-key"
          : "secret";
  const queryOnly =
    cls === "weak" &&
    words.some((w) => w === "sig" || w === "signature") &&
    !words.some((w) => WEAK_WORDS.has(w) && w !== "sig" && w !== "signature");
  return {
    cls,
    kind,
    numbersAreSecret: cls === "password" && NUMERIC_PASSWORD_LAST.has(last),
    queryOnly,
    auth: words.includes("auth"),
    phrase: isPhrase(words),
  };
}

function isPhrase(words: readonly string[]): boolean {
  return words.some((w) => PHRASE_WORDS.has(w)) || PHRASE_PAIRS.some(([a, b]) => words[words.indexOf(a) + 1] === b);
}

/** `Pwd=` alone in a connection string (ODBC, ADO.NET): the password; `PWD=/home/me` is a path, harmless anyway. */
const CONNECTION_PASSWORD: KeyVerdict = {
  cls: "password",
  kind: "password",
  numbersAreSecret: true,
  queryOnly: false,
  auth: false,
  phrase: false,
};

/** Whether `name <sep> value` holds a credential: the name's verdict, with what the separator adds. */
export function classifyAssignment(name: string, sep: string): KeyVerdict | null {
  const verdict = classifyKey(name);
  if (verdict === null && sep === "=" && name.toLowerCase() === "pwd") return CONNECTION_PASSWORD;
  return verdict;
}

/** A number under these names is a password or PIN; under any other (`max_tokens: 4096`) it is a count. */
const NUMERIC_PASSWORD_LAST = new Set(["password", "passwd", "passphrase", "passcode", "pwd", "pin"]);

/** A name with one of these words describes a digest of the secret (`checksum/secret`), not the secret. */
const DIGEST_WORDS = new Set(["checksum", "hash", "digest", "sha1", "sha256", "sha512", "md5", "etag", "fingerprint"]);

export function isDigestWord(word: string): boolean {
  return DIGEST_WORDS.has(word.toLowerCase());
}

function keyClass(words: readonly string[]): KeyClass | null {
  const last = words.at(-1);
  if (last === undefined) return null;
  if (words.some((w) => DIGEST_WORDS.has(w))) return null;
  if (DESCRIBING_LAST.has(last)) return null;
  if (isPhrase(words)) return "password";
  if (words.length === 1) {
    // The shell's working directory, and a lone `pass` (a test count as often as a password).
    if (last === "pwd" || last === "oldpwd") return null;
    if (last === "pass") return "secret";
  }
  let cls: KeyClass | null = null;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    // `pass` is a password at the end of a name (DB_PASS), a verb elsewhere (shouldPassData).
    if ((PASSWORD_WORDS.has(w) && (w !== "pass" || i === words.length - 1)) || endsWithAny(w, ["password", "passwd"])) return "password";
    if (SECRET_WORDS.has(w) || endsWithAny(w, ["token", "secret", "apikey", "accesskey", "secretkey", "privatekey"])) cls = "secret";
    // A weak word counts only at the end of the name (`sig`, `auth_key`), not inside (`RegOpenKeyEx`, `keyVault`).
    else if (cls === null && i === words.length - 1 && WEAK_WORDS.has(w)) cls = "weak";
    else if (cls === null && w.endsWith("key") && CREDENTIAL_KEY_COMPOUNDS.has(w.slice(0, -3))) cls = "weak";
  }
  for (const [a, b] of SECRET_PAIRS) {
    const at = words.indexOf(a);
    if (at !== -1 && words[at + 1] === b) cls = "secret";
  }
  if (cls === "weak" && last === "key" && words.length >= 2 && NOT_CREDENTIAL_KEY.has(words.at(-2)!)) return null;
  return cls;
}
