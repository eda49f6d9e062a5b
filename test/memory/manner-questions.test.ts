/**
 * A question asking how something is done (Li and Roth's DESC:manner: "how do I ...", "how to
 * ...") is answered by the command that did it as much as by a note: a command holding the
 * question's words ranks as a note would for it. Histories written for these tests.
 */
import { afterAll, expect, test } from "bun:test";
import { asksManner } from "../../src/memory/answer-type.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { hitIds, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

test("'how do I', 'how can we', 'how to' ask for a way; 'how long', 'how many', 'how is' do not", () => {
  for (const q of ["how do I load the firmware onto the board", "how can we reset the cache", "how to rotate the keys"])
    expect({ q, manner: asksManner(q) }).toEqual({ q, manner: true });
  for (const q of ["how long are logs kept", "how many workers run", "how is the cache keyed", "where is the firmware"])
    expect({ q, manner: asksManner(q) }).toEqual({ q, manner: false });
});

async function history(m: TestMemory): Promise<string> {
  for (let i = 0; i < 6; i++) {
    await m.add("prompt", `board ${i} firmware boots slowly after the load, any idea`, "s1");
    await m.add("answer", `Board ${i}: the firmware load was fine, the slow boot is the sensor warm-up.`, "s1");
  }
  for (let i = 0; i < 4; i++) await m.add("note", `firmware for board ${i + 6} is loaded, boots in about ${4 + i} s`, "s2");
  return m.add(
    "command",
    "$ make load-firmware BOARD=b7\ndfu-util -a 0 -s 0x08000000:leave -D build/firmware.bin\nDownload done. firmware loaded onto board b7",
    "s3",
  );
}

test("a manner question finds the command that did it, as it would a note saying the same", async () => {
  const m = testMemory();
  const command = await history(m);
  expect(await hitIds(m, "how do I load the firmware onto a board")).toContain(command);
  // Asked for something else on the same words, the notes and chatter come first.
  expect(await hitIds(m, "firmware load on a board")).not.toContain(command);
});
