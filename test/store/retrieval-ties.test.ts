/**
 * Search on outputs written for these tests (none comes from a benchmark set): several query words
 * the text writes as one word; a table whose number column is right-aligned (a short number is a
 * row, not a child of the row above); one row that has the whole query over a run of rows that
 * repeat part of it; the entry a path names over entries under it; on a minified line, the
 * definition the repeated uses refer to.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

describe("query words the text writes together", () => {
  test("three words find one key written as one word", async () => {
    // A client's effective configuration: lower-case keys with their words run together.
    const keys = ["hostname", "port", "user", "batchmode", "compression", "forwardagent", "loglevel", "tcpkeepalive"];
    const lines = keys.map((k, i) => `${k} value${i}`);
    lines.push("retrycountmax 3", "retryinterval 5", "keepalivecountmax 3", "keepaliveinterval 45", "identityfile ~/.cfg/id_main");
    for (let i = 0; i < 60; i++) lines.push(`option${i} setting${i}`);
    const text = lines.join("\n");
    const { store, source } = await stored(text);
    const answer = text.split("\n").indexOf("keepaliveinterval 45") + 1;
    expect(shows(top3(store, source, "keep alive interval"), answer, "keepaliveinterval 45")).toBe(true);
  });
});

describe("a right-aligned number column", () => {
  test("a short number under longer ones is a row of the table its header names", async () => {
    // A process table: PIDs right-aligned; the row of PID 1 early, a run of rows whose parent is 1 much later.
    const lines = ["  PID  PPID USER     RSS COMMAND"];
    for (let i = 0; i < 90; i++) {
      if (i === 20) lines.push("    1     0 app    4100 supervisor");
      const parent = i >= 60 ? "    1" : String(20000 + i);
      lines.push(`${20000 + i * 37} ${parent} app   ${900 + i} worker-${i}`);
    }
    const text = lines.join("\n");
    const { store, source } = await stored(text);
    const answer = text.split("\n").findIndex((l) => l.includes("supervisor")) + 1;
    expect(shows(top3(store, source, "what is pid 1"), answer, "supervisor")).toBe(true);
  });
});

describe("a path's last part", () => {
  test("names the entry itself, over runs of files under it", async () => {
    // A disk usage listing sorted by size: the toolkit's files in runs, the directory itself far below them.
    const lines: string[] = [];
    for (let i = 0; i < 240; i++) {
      const size = `${Math.floor(i / 4) + 1}M`;
      lines.push(i % 40 < 6 ? `${size}\t/opt/sdk/vendorkit-7-amd64/lib/part${i}.bin` : `${size}\t/opt/other/pkg${i}/data${i}.bin`);
    }
    for (let i = 0; i < 200; i++) lines.push(`${70 + i}M\t/opt/more/pkg${i}`);
    lines.push("300M\t/opt/sdk/vendorkit-7-amd64");
    for (let i = 0; i < 20; i++) lines.push(`${300 + i}M\t/opt/big${i}`);
    const text = lines.join("\n");
    const { store, source } = await stored(text);
    expect(shows(top3(store, source, "vendorkit"), 441, "300M\t/opt/sdk/vendorkit-7-amd64")).toBe(true);
  });
});

describe("a minified line", () => {
  test("shows the definition the repeated uses refer to, not the same use three times", async () => {
    // A minified bundle: a module that defines its zero value once, then functions that all use it the same way.
    const parts: string[] = [];
    for (let i = 0; i < 40; i++) {
      if (i === 20) parts.push("var u=function(t,n){this.lo=t>>>0,this.hi=n>>>0},e=u.zero=new u(0,0);e.toNumber=function(){return 0};");
      parts.push(
        `function f${i}(t,n){var k=n*${i + 3}|0;return t?r.Bits.from(t).toHash(k):r.Bits.zeroHash}var v${i}=[${i},${i * 7},${i * 13}];`,
      );
    }
    const { store, source } = await stored(`${parts.join("")}\n`);
    const hits = top3(store, source, "Bits zero");
    expect(shows(hits, 1, "e=u.zero=new u(0,0)")).toBe(true);
  });
});
