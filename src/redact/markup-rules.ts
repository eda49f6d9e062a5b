/**
 * Credentials in markup and in what a command printed: XML settings written as name/value pairs
 * (`<add key="ClearTextPassword" value="..."/>` in NuGet.config, `<property name="...password">` in
 * Hibernate and Spring files, `<entry key=...>`, `<param name=...>`), elements with attributes whose
 * name says credential (`<wsse:Password Type="...">`), Go MySQL and Oracle JDBC connection strings
 * (`user:pass@tcp(host)/db`, `jdbc:oracle:thin:user/pass@host`), a builder's `.password("...")`,
 * and the output line of commands that print a secret (`wg genkey`, `gcloud auth print-access-token`,
 * `gh auth token`, `cat` of a key or token file, a Solana keypair file).
 */
import { BOUNDARY } from "./keyword-automaton.ts";
import { type LineRule, lineRulesDetector } from "./line-rules.ts";

const NAMES = ["password", "passwd", "secret", "token", "apikey", "api_key", "credential", "private"];
const VALUE = `(?:"([^"\\n]{1,256})"|'([^'\\n]{1,256})')`;
/** Secret-printing commands: their next line is the secret. */
const PRINTS_SECRET =
  "wg genkey|wg genpsk|gcloud auth (?:application-default )?print-(?:access|identity)-token|gh auth token|vault print token|" +
  "heroku auth:token|aws ecr get-login-password|openssl rand -(?:hex|base64) \\d{2,3}|doctl auth token|flyctl auth token|fly auth token";

export const MARKUP_RULES: readonly LineRule[] = [
  {
    kind: "password",
    hints: NAMES,
    nameGroup: 1,
    pattern: new RegExp(
      `<(?:add|entry|param|property|setting|item)\\s+(?:key|name)\\s*=\\s*["']([^"'\\n]{1,80})["']\\s+value\\s*=\\s*${VALUE}`,
      "i",
    ),
  },
  {
    kind: "password",
    hints: NAMES,
    nameGroup: 1,
    requires: "<",
    pattern: /<(?:property|entry|param|setting)\s+(?:key|name)\s*=\s*["']([^"'\n]{1,80})["']\s*>([^<\n]{1,256})<\//i,
  },
  {
    kind: "password",
    hints: NAMES,
    nameGroup: 1,
    requires: "</",
    pattern: /<(?:[\w-]{1,30}:)?([\w-]{1,60})\s[^<>\n]{1,300}>([^<\n]{1,256})<\//,
  },
  { kind: "password", hints: ["@tcp", "@unix"], pattern: /(?:^|["'`\s=])[\w.-]{1,64}:([^@\s"'/]{1,128})@(?:tcp|unix)\(/ },
  { kind: "password", hints: ["jdbc:oracle:"], pattern: /jdbc:oracle:(?:thin|oci8?):[\w.$-]{1,64}\/([^@\s"'/]{1,128})@/i },
  { kind: "password", hints: ["password("], pattern: new RegExp(`\\.(?:set|with)?[Pp]assword\\(\\s*${VALUE}\\s*\\)`) },
  {
    kind: "secret",
    hints: [
      "genkey",
      "genpsk",
      "print-access-token",
      "print-identity-token",
      "auth token",
      "print token",
      "auth:token",
      "openssl rand",
      "get-login-password",
    ],
    after: 1,
    pattern: new RegExp(`^\\S{0,40}\\$ (?:${PRINTS_SECRET})[^\\n]{0,200}\\r?\\n([A-Za-z0-9+/=_.-]{16,4096})\\r?$`),
    checkValue: false,
  },
  {
    kind: "secret",
    hints: [`${BOUNDARY}cat`],
    after: 1,
    pattern: /^\S{0,40}\$ cat [^\s]{0,200}(?:\.key|[._-]token|\.secret|\.psk|password|passwd)\r?\n([A-Za-z0-9+/=_.-]{16,4096})\r?$/,
    checkValue: false,
  },
  {
    kind: "private-key",
    hints: [`${BOUNDARY}cat`],
    after: 1,
    pattern: /^\S{0,40}\$ cat [^\s]{0,200}(?:solana|keypair|wallet|id)[^\s]{0,60}\.json\r?\n(\[(?:\d{1,3}, ?){63}\d{1,3}\])\r?$/,
    checkValue: false,
  },
];

export const markupLines = lineRulesDetector("markup-lines", MARKUP_RULES);
