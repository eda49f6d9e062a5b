/**
 * One read through the cache, as the engine runs it: decide from what the model has seen, keep
 * the version it now has some of as a base for later reads, and count what was saved (kept in
 * `readcache_reads`, so stats show the read cache's own line).
 */
import { type Db, immediateAsync } from "../db/open.ts";
import { hasSecrets, redact } from "../redact/redact.ts";
import type { TokenCounter } from "../tokens/counter.ts";
import { type DecideInput, type Decision, decide } from "./decide.ts";
import { createObjectStore } from "./objects.ts";

/** What a read through the cache needs from the engine. */
export type ReadDeps = { db: Db; now: () => number; tokens: TokenCounter };

/** A read, and who made it (for the savings kept per session and project). */
export type ReadInput = DecideInput & { session?: string | null; project?: string | null };

export async function readWithCache(deps: ReadDeps, input: ReadInput): Promise<Decision> {
  const { db, now } = deps;
  // Nothing secret is persisted: a file with anything redaction would touch is not cached.
  if (hasSecrets(input.text)) {
    return {
      mode: "full",
      text: input.builtIn,
      record: { v: 1, path: input.path, hash: "", lines: 0, mode: "full", trusted: [], saved: { bytes: 0, tokens: 0 } },
    };
  }
  const objects = createObjectStore(db, now);
  const decision = decide(input, objects); // reads only
  // Saved = what the built-in read would have sent minus what was sent: truncation is not saving.
  const counted =
    decision.mode === "full" ? null : { builtIn: await deps.tokens.count([input.builtIn]), sent: await deps.tokens.count([decision.text]) };
  const saved =
    counted === null
      ? { bytes: 0, tokens: 0 }
      : { bytes: Buffer.byteLength(input.builtIn) - Buffer.byteLength(decision.text), tokens: counted.builtIn - counted.sent };
  if (decision.record.trusted.length > 0 || decision.base || counted) {
    // Waits for other writers with async retries: inside pi this must not block its event loop.
    await immediateAsync(db, async () => {
      if (decision.record.trusted.length > 0) objects.put(decision.record.hash, input.text);
      if (decision.base) objects.touch(decision.base);
      if (counted)
        db.query("INSERT INTO readcache_reads (at, session, project, mode, builtin_tokens, sent_tokens) VALUES (?, ?, ?, ?, ?, ?)").run(
          now(),
          input.session ? redact(input.session).text : null,
          input.project ? redact(input.project).text : null,
          decision.mode,
          counted.builtIn,
          counted.sent,
        );
    });
  }
  return { ...decision, record: { ...decision.record, saved } };
}
