/** Worker thread: counts tokens off the main thread while it writes to SQLite. */
import { countTokens } from "./count.ts";

declare const self: Worker;

self.onmessage = (event: MessageEvent<{ id: number; texts: string[] }>) => {
  const { id, texts } = event.data;
  try {
    let total = 0;
    for (const text of texts) total += countTokens(text);
    self.postMessage({ id, total });
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
