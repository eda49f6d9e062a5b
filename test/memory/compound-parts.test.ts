/**
 * A query word said only inside a closed compound ("GATEKEEPERS" holds "gate", "paymentgateway"
 * holds "payment"), counted at PART_WEIGHT (compound-parts.ts, rank.ts). Inputs written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { WeightedGroup } from "../../src/memory/candidates.ts";
import { compoundParts } from "../../src/memory/compound-parts.ts";
import { textWords } from "../../src/memory/query.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const parts = (text: string, groups: WeightedGroup[]) => compoundParts(textWords(text).long, groups, new Map());
const group = (group: number, word: string): WeightedGroup => ({ group, word, forms: [], df: 1, rows: 100, idf: 3 });

describe("parts of a closed compound", () => {
  test("a query word at the start, middle or end of a run of letters, the rest four letters or more on each side", () => {
    expect([...parts("see GATEKEEPERS for reviewers", [group(0, "gate")])]).toEqual([0]);
    expect([...parts("set citypaymentgateway in the env", [group(0, "payment")])]).toEqual([0]);
    expect([...parts("the walletpayment client", [group(0, "payment")])]).toEqual([0]);
  });

  test("not a short rest ('support' is no 'port'), not the word alone or a short query word", () => {
    expect([...parts("customer support rotation schedule", [group(0, "port")])]).toEqual([]);
    expect([...parts("the payment gateway", [group(0, "payment")])]).toEqual([]);
    expect([...parts("see gatekeepers", [group(0, "gat")])]).toEqual([]);
  });
});

describe("search finds a statement holding query words inside a compound", () => {
  test("'who are the ledger owners' finds the note that names them in one word", async () => {
    const m = testMemory();
    for (let i = 0; i < 15; i++) {
      await m.add("prompt", `the ledger export for branch ${i} is slow, can you look`, "s1");
      await m.add("answer", `Indexed the export table for branch ${i}.`, "s1");
      if (i % 5 === 0) await m.add("prompt", `the shop owners at branch ${i} want a weekly report`, "s1");
    }
    const owners = await m.add("note", "ledger: added LEDGEROWNERS, Ines Duarte approves anything touching src/recon", "s2");
    const r = await m.ok({ type: "search", project: PROJECT, query: "who are the owners of the ledger", limit: 5 }, "search");
    expect(r.hits.map((h) => h.id)).toContain(owners);
  });
});
