/**
 * A numbered name (`i2c0`, `uart1`) is found by the name alone, and a hit holding every word of
 * the query the memory knows (two or more) answers even when the query's other words are
 * paraphrases the memory never saw; one known word among unknown ones still finds nothing.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { extraTerms, unnumbered } from "../../src/memory/identifiers.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const search = async (m: ReturnType<typeof testMemory>, query: string) =>
  (await m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search")).hits;

describe("numbered names", () => {
  test("the name of a numbered name is indexed beside it", () => {
    expect(unnumbered("i2c0")).toBe("i2c");
    expect(unnumbered("uart12")).toBe("uart");
    expect(unnumbered("ec2")).toBe("ec");
    // A number, a single letter with a number, or a word ending in a letter has none.
    expect(unnumbered("2024")).toBeNull();
    expect(unnumbered("v2")).toBeNull();
    expect(unnumbered("sensor")).toBeNull();
    expect(extraTerms("the probe runs on i2c0 and spi1")?.split(" ")).toEqual(expect.arrayContaining(["i2c", "spi"]));
  });

  async function history() {
    const m = testMemory();
    for (let i = 0; i < 10; i++) {
      await m.add("command", `$ make flash-board${i} && tail -n 20 build/uart.log`, "s1");
      await m.add("answer", `Flashed board ${i}; the sensor readout looks sane.`, "s1");
      await m.add("prompt", `can you look at the battery graph for node ${i}?`, "s1");
    }
    const note = await m.add("note", "the SHT41 sensor sits on uart1 at 9600 baud, 19200 drops frames", "s2");
    for (let i = 0; i < 5; i++) await m.add("answer", `Battery graph for node ${i} is flat.`, "s2");
    return { m, note };
  }

  test("a query naming the bare name and the subject finds the statement, its other words unknown to the memory", async () => {
    const { m, note } = await history();
    // "uart" is held only as uart1 in the note; "communication", "rate", "setting", "humidity" no event holds.
    const hits = await search(m, "uart communication rate setting for the humidity sensor");
    expect(hits.map((h) => h.id)).toContain(note);
    expect(hits[0]!.id).toBe(note);
  });

  test("one known word among unknown ones is still a guess: nothing is returned", async () => {
    const { m } = await history();
    expect(await search(m, "which humidity threshold raises the sensor alarm")).toEqual([]);
  });
});
