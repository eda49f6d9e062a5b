/**
 * Passwords in protocol transcripts and in commands that take one as an argument, as the protocols'
 * and tools' own documentation writes them: SMTP `AUTH PLAIN` (RFC 4954), FTP/POP3 `PASS` (RFC 959,
 * RFC 1939), IMAP `LOGIN` (RFC 3501), Redis `AUTH` (also as `MONITOR` prints it), an `expect` script's
 * `send` after a password prompt; OpenSSL `pass:` arguments, Java keytool/jarsigner `-storepass` and
 * `-keypass`, `sqlcmd`/`bcp`/`az login` `-P`/`-p`, `sudo -S` fed by `echo`, Windows `net use`,
 * `htpasswd -b`; PowerShell `ConvertTo-SecureString ... -AsPlainText`, .NET `NetworkCredential`,
 * Python requests `HTTPBasicAuth`, Apache HttpClient `UsernamePasswordCredentials`, SQL
 * `IDENTIFIED BY` / `WITH PASSWORD`; Redis `requirepass`/`masterauth`, HAProxy `insecure-password`,
 * Cisco IOS `password 0`/`secret 0`, wpa_supplicant/NetworkManager `psk=`.
 */
import { BOUNDARY } from "./keyword-automaton.ts";
import { type LineRule, lineRulesDetector } from "./line-rules.ts";

const Q = `["'\`]`;
/** A quoted or bare argument: group 1 inside the quotes, group 2 bare. */
const ARG = `(?:"([^"\\n]{1,256})"|'([^'\\n]{1,256})'|([^\\s"'-][^\\s]{0,255}))`;

export const PROTOCOL_RULES: readonly LineRule[] = [
  {
    kind: "password",
    upper: true,
    hints: [`${BOUNDARY}auth`],
    pattern: /^(?:[CS]: ?|> ?)?AUTH (?:PLAIN|LOGIN|XOAUTH2|OAUTHBEARER) ([A-Za-z0-9+/=]{8,4096})\s*$/,
  },
  { kind: "password", upper: true, hints: [`${BOUNDARY}pass`], pattern: /^(?:C: ?|> ?|--> ?)?PASS ([^\s].{0,255}?)\s*$/ },
  {
    kind: "password",
    upper: true,
    hints: [`${BOUNDARY}login`],
    pattern: new RegExp(`^(?:C: ?)?[A-Za-z0-9.]{1,16} LOGIN ${ARG} ${ARG}\\s*$`),
  },
  { kind: "password", upper: true, hints: [`${BOUNDARY}auth`], pattern: /"AUTH"(?: "[^"\n]{1,128}")? "([^"\n]{1,256})"/ },
  {
    kind: "password",
    upper: true,
    hints: [`${BOUNDARY}auth`],
    pattern: /(?:^|> |redis-cli[^\n]{0,200} )AUTH (?:[^\s]{1,64} )?([^\s]{4,256})\s*$/,
  },
  {
    kind: "password",
    hints: [`${BOUNDARY}send`],
    before: 2,
    pattern:
      /expect[^\n]{0,80}(?:assword|passphrase|PIN)[^\n]{0,40}\n(?:[^\n]{0,200}\n)?\s*send\s+(?:-- )?"(?!\$)([^"\\\n]{1,256})(?:\\r|\\n)?"/i,
  },
];

export const COMMAND_RULES: readonly LineRule[] = [
  { kind: "password", hints: ["pass:"], pattern: new RegExp(`-pass(?:in|out)?\\s+${Q}?pass:([^\\s"'\`]{1,256})`) },
  { kind: "password", hints: ["storepass", "keypass"], pattern: new RegExp(`-(?:src|dest|new)?(?:store|key)pass\\s+${ARG}`) },
  {
    kind: "password",
    hints: [`${BOUNDARY}-p`],
    pattern: new RegExp(`\\b(?:sqlcmd|bcp|osql|isql|az (?:login|acr login)|oc login|vsql|psexec)\\b[^\\n]{0,300}?\\s-[Pp]\\s+${ARG}`),
  },
  { kind: "password", hints: ["sudo"], pattern: new RegExp(`echo\\s+(?:-n\\s+)?${ARG}\\s*\\|\\s*sudo\\s+(?:-[A-Za-z]+\\s+){0,4}`) },
  { kind: "password", hints: [`${BOUNDARY}net use`], pattern: /\bnet use\b[^\n]{0,200}\/user:[^\s]{1,128}\s+(?!\/)([^\s]{1,256})/i },
  {
    kind: "password",
    hints: ["htpasswd"],
    pattern: new RegExp(`htpasswd\\s+-[a-zA-Z]*b[a-zA-Z]*\\s+(?:-[a-zA-Z]+\\s+){0,3}[^\\s]{1,256}\\s+[^\\s]{1,128}\\s+${ARG}`),
  },
  {
    kind: "password",
    hints: ["convertto-securestring"],
    pattern: new RegExp(`ConvertTo-SecureString\\s+(?:-String\\s+)?${ARG}\\s+-AsPlainText`, "i"),
  },
  {
    kind: "password",
    hints: ["networkcredential", "usernamepasswordcredentials", "httpbasicauth", "httpdigestauth", "passwordauthentication"],
    pattern:
      /(?:NetworkCredential|UsernamePasswordCredentials|HTTPBasicAuth|HTTPDigestAuth|PasswordAuthentication)\(\s*(?:"[^"\n]{0,128}"|'[^'\n]{0,128}'|[\w.]{1,64})\s*,\s*(?:"([^"\n]{1,256})"|'([^'\n]{1,256})')/,
  },
  { kind: "password", hints: ["identified by"], pattern: /IDENTIFIED (?:WITH [\w]{1,40} )?BY '([^'\n]{1,256})'/i },
  {
    kind: "password",
    hints: [`${BOUNDARY}password`],
    pattern: /\b(?:CREATE|ALTER) (?:USER|ROLE|LOGIN)\b[^\n]{0,200}\bPASSWORD\s*=?\s*'([^'\n]{1,256})'/i,
  },
];

export const DIRECTIVE_RULES: readonly LineRule[] = [
  { kind: "password", hints: ["requirepass", "masterauth"], pattern: /^\s*(?:requirepass|masterauth)\s+("?)([^\s"]{1,256})\1\s*$/ },
  { kind: "password", hints: ["insecure-password"], pattern: /\binsecure-password\s+([^\s]{1,256})/ },
  {
    kind: "password",
    hints: [`${BOUNDARY}password`, `${BOUNDARY}secret`],
    pattern: /^\s*(?:username\s+[^\s]{1,64}\s+(?:privilege\s+\d{1,2}\s+)?|enable\s+)?(?:password|secret)\s+0\s+([^\s]{1,256})\s*$/,
  },
  { kind: "password", hints: [`${BOUNDARY}psk`], pattern: /^\s*psk\s*=\s*(?:"([^"\n]{1,256})"|([^\s"]{8,256}))\s*$/ },
];

export const protocolLines = lineRulesDetector("protocol-lines", [...PROTOCOL_RULES, ...COMMAND_RULES, ...DIRECTIVE_RULES]);
