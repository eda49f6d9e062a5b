/**
 * No place has every word whole, so the words are looked up as the start of longer words
 * ("mean" finds "meaningful"): a number among them is still matched, and whole. Leaving it out
 * let any place with the other words' starts answer, never the line that has the number.
 * Outputs written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { wordsPrefixAnd } from "../../src/store/search/query.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

/** A made-up tool's manual: options that say "meaningful" near "exit" and "code", then its exit codes, one per number. */
function manual(): string {
  const lines: string[] = ["FETCHIT(1)                     User Commands                    FETCHIT(1)", "", "OPTIONS"];
  for (let i = 0; i < 40; i++) {
    // Options named by letters: no number of theirs is an exit code.
    const name = String.fromCharCode(97 + (i % 26)) + String.fromCharCode(97 + Math.floor(i / 26));
    lines.push(`       --opt-${name}`, `              Sets knob ${name} of fetchit. Only meaningful when the exitcode of the`);
    lines.push("              previous step is printed; see the write-out variables.", "");
  }
  lines.push("EXIT CODES", "       There are many exit codes; each names one reason for stopping.", "");
  const reasons = [
    "Unsupported protocol.",
    "Failed to start.",
    "Bad address.",
    "Not built in.",
    "Proxy not resolved.",
    "Host not resolved.",
  ];
  for (let code = 1; code <= 90; code++) {
    lines.push(`       ${code}`.padEnd(14) + `${reasons[code % reasons.length]} Case ${code}: fetchit stopped while`);
    lines.push("              waiting for the peer, after the retries the options allow.", "");
  }
  return lines.join("\n");
}

describe("a number among words looked up as word starts", () => {
  test("the prefix query keeps the number, whole", () => {
    expect(wordsPrefixAnd(["exit", "code", "28", "mean"])).toBe('"exit"* "code"* "mean"* "28"');
  });

  test("the line with the number is among the hits, not only the places that mention the words", async () => {
    const text = manual();
    const { store, source } = await stored(text);
    const answer = text.split("\n").findIndex((l) => l.trim().startsWith("37 ")) + 1;
    expect(answer).toBeGreaterThan(0);
    expect(shows(top3(store, source, "what does fetchit exit code 37 mean"), answer, "Case 37:")).toBe(true);
  });
});
