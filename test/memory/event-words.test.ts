/**
 * An event's words are kept by its id for the next query (query.ts eventWords), and used only
 * while the event still says the same: two databases in one process hold events of the same id,
 * and each is scored by its own text.
 */
import { afterAll, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { hitIds, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

test("an event of the same id in another database is scored by its own words", async () => {
  const first = testMemory();
  const second = testMemory();
  const a = await first.add("note", "The orchard sensors report soil moisture every ten minutes over LoRa.");
  const b = await second.add("note", "Invoices for the cider press rental go out on the first Monday of the month.");
  expect(a).toBe(b);
  expect(await hitIds(first, "how often do the orchard sensors report moisture?")).toEqual([a]);
  expect(await hitIds(second, "when do the cider press rental invoices go out?")).toEqual([b]);
  expect(await hitIds(second, "how often do the orchard sensors report moisture?")).toEqual([]);
  expect(await hitIds(first, "when do the cider press rental invoices go out?")).toEqual([]);
});
