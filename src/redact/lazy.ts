/**
 * Redaction for the short strings stored or matched on paths that must not load the rules up
 * front (an engine starting, a search): the rules load on the first call, tens of milliseconds
 * once per process. Same rules, same result as redact().
 */
type Redact = typeof import("./redact.ts").redact;

let loaded: Redact | null = null;

export function redactText(text: string): string {
  loaded ??= (require("./redact.ts") as typeof import("./redact.ts")).redact;
  return loaded(text).text;
}

/** A filter value as it was stored: a session id or path that held a secret is kept redacted, so it is matched redacted. */
export function asStored(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? value : redactText(value);
}
