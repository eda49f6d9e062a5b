/**
 * Secret redaction. Runs over every captured text before anything is persisted, over read-cache
 * candidates, labels, tool names and session ids.
 *
 * Rules: secretlint's recommended preset (maintained upstream, see preset-rules.ts), credential
 * formats it lacks (token-formats.ts), credentials told by their structure (Discord and Telegram bot
 * tokens, WIF keys, AWS secret keys beside their ids, `.pgpass` lines: structured-tokens.ts),
 * private keys, URL credentials, HTTP auth headers, command-line passwords and `NAME = value`
 * assignments whose name says credential (with an allow-list of harmless names and values),
 * including `define('NAME', 'value')` calls and YAML block scalars. One automaton pass finds every rule's literal hints; each rule then
 * reads a bounded stretch around its hits, so redaction is linear in the input and a text with no
 * hint costs one table walk and no copy.
 *
 * A secret becomes `[REDACTED:<kind>]`. Line structure is kept exactly: a redacted span that crossed
 * newlines is followed by as many newlines, so stored line numbers match the tool's output.
 */
import { applyFindings } from "./apply-findings.ts";
import { assignments } from "./assignments.ts";
import { authSchemes } from "./auth-schemes.ts";
import { commandLines } from "./command-lines.ts";
import { cookies } from "./cookies.ts";
import { csvColumns } from "./csv-columns.ts";
import { derKeys } from "./der-keys.ts";
import { createDetectorSet, type DetectorSet } from "./detector-set.ts";
import { markupLines } from "./markup-rules.ts";
import { presetRulesDetector } from "./preset-rules.ts";
import { privateKeys } from "./private-keys.ts";
import { protocolLines } from "./protocol-rules.ts";
import { seedPhrases } from "./seed-phrases.ts";
import { structuredTokens } from "./structured-tokens.ts";
import { tokenFormats } from "./token-formats.ts";
import { urlCredentials } from "./url-credentials.ts";

export type Redaction = { text: string; count: number; kinds: Record<string, number> };

let detectors: DetectorSet | undefined;

/** Built on first use (about 10 ms): a process that never redacts does not pay for it. */
function detectorSet(): DetectorSet {
  // Formats first: on overlap their kind names the span.
  detectors ??= createDetectorSet([
    tokenFormats,
    structuredTokens,
    privateKeys,
    urlCredentials,
    authSchemes,
    commandLines,
    protocolLines,
    assignments,
    presetRulesDetector,
    seedPhrases,
    cookies,
    csvColumns,
    derKeys,
    markupLines,
  ]);
  return detectors;
}

export function redact(input: string): Redaction {
  return applyFindings(input, detectorSet().run(input, false).findings);
}

/** True iff redact(input) would change the text; stops at the first secret. */
export function hasSecrets(input: string): boolean {
  return detectorSet().run(input, true).findings.length > 0;
}
