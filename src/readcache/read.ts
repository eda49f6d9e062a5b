/**
 * One read through the cache, as the engine runs it: decide from what the model has seen, keep
 * the version it now has some of as a base for later reads, and count what was saved.
 */
import { immediateAsync } from "../db/open.ts";
import type { EngineDeps } from "../engine-deps.ts";
import { hasSecrets } from "../redact/redact.ts";
import { type DecideInput, type Decision, decide } from "./decide.ts";
import { createObjectStore } from "./objects.ts";

export async function readWithCache(deps: EngineDeps, input: DecideInput): Promise<Decision> {
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
  if (decision.record.trusted.length > 0 || decision.base) {
    // Waits for other writers with async retries: inside pi this must not block its event loop.
    await immediateAsync(db, async () => {
      if (decision.record.trusted.length > 0) objects.put(decision.record.hash, input.text);
      if (decision.base) objects.touch(decision.base);
    });
  }
  // Saved = what the built-in read would have sent minus what was sent: truncation is not saving.
  const saved =
    decision.mode === "full"
      ? { bytes: 0, tokens: 0 }
      : {
          bytes: Buffer.byteLength(input.builtIn) - Buffer.byteLength(decision.text),
          tokens: (await deps.tokens.count([input.builtIn])) - (await deps.tokens.count([decision.text])),
        };
  return { ...decision, record: { ...decision.record, saved } };
}
