/** Token counting behind an async interface: inline here, or on the background worker (src/background.ts). */
import { countTokens } from "./count.ts";

export type TokenCounter = {
  /** Total tokens of the texts (counted separately and summed). */
  count(texts: string[]): Promise<number>;
  close(): void;
};

export function inlineTokenCounter(): TokenCounter {
  return {
    count: async (texts) => texts.reduce((sum, t) => sum + countTokens(t), 0),
    close: () => {},
  };
}
