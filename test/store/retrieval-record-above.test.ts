/**
 * Lines above the record a hit starts that belong to the record before it (indented under its
 * first line) give their place to the lines after the hit's nearest context: a decoded reply's
 * question comes a few lines past its outcome, and the frame lines above it answer nothing.
 * The output is made here.
 */
import { afterAll, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

/** Decoded replies as a protocol analyser prints them: a frame record, then the reply's record with its flag bits. */
function replies(): { text: string; answer: number } {
  const rows: string[] = [];
  let answer = 0;
  for (let k = 0; k < 30; k++) {
    const refused = k === 21;
    const outcome = refused ? "Refused by peer (3)" : "Granted (0)";
    rows.push(`Frame ${k + 1}: 142 bytes on wire (1136 bits), 142 bytes captured (1136 bits)`);
    rows.push(
      `    Arrival offset: 0.000${100 + k} seconds`,
      "    Interface: lo0",
      `    [Time since previous frame: 0.000${200 + k} seconds]`,
    );
    rows.push(`    Payload (${90 + k} bytes)`);
    rows.push("Lease Protocol (reply)", `    Exchange ID: 0x${(0x4a00 + k * 7).toString(16)}`);
    rows.push(`    Flags: 0x85${refused ? "03" : "00"} Standard reply, ${refused ? "Refused by peer" : "Granted"}`);
    rows.push("        1... .... .... .... = Reply: Message is a reply");
    rows.push("        .000 0... .... .... = Mode: Standard exchange (0)");
    rows.push("        .... .1.. .... .... = Owner: Peer owns the lease");
    rows.push("        .... ..0. .... .... = Cut: Message is whole");
    rows.push("        .... ...1 .... .... = Renew wanted: Renew the lease when it ends");
    rows.push("        .... .... 0... .... = Renew offered: Peer does not renew leases");
    rows.push("        .... .... .0.. .... = Spare: zero (0)");
    rows.push("        .... .... ..0. .... = Signed: Reply is not signed by the peer");
    rows.push(`        .... .... .... 00${refused ? "11" : "00"} = Outcome: ${outcome}`);
    rows.push("    Requests: 1", `    Grants: ${refused ? 0 : 1}`, "    Holders: 1", "    Extras: 1", "    Requests");
    if (refused) answer = rows.length + 1;
    rows.push(
      `        desk-${k}.corp.example: slot A, pool main`,
      `            Name: desk-${k}.corp.example`,
      "            [Name length: 18]",
    );
    rows.push("            Slot: A (1)", "            Pool: main (1)");
  }
  return { text: `${rows.join("\n")}\n`, answer };
}

test("a reply's request a few lines past its outcome is shown, not the frame lines above the reply", async () => {
  const { text, answer } = replies();
  const { store, source } = await stored(text);
  const hits = top3(store, source, "which standard reply was Refused by peer");
  expect(shows(hits, answer, "desk-21.corp.example: slot A")).toBe(true);
});
