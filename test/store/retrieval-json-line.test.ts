/**
 * One-line JSON (a whole report minified onto one line): each object is a record named by its
 * own short fields, so a search lands on the object whose name matches and shows its fields with
 * its key path, although the line is cut into chunks and the name is kilobytes from the field.
 * The report is real (test/store/fixtures/retrieval/README.md); the reader is tested on its own too.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonLine, objectAt, objectPath, outerContainers } from "../../src/store/search/json-line.ts";
import type { Hit } from "../../src/store/search/search.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

const report = readFileSync(join(import.meta.dir, "fixtures/retrieval/eslint-src.json"), "utf8");

/** A hit's line 1 shows every piece (the object's name and the field asked about, on one hit). */
const showsAll = (hits: Hit[], pieces: string[]) =>
  hits.some((h) => h.lines.some((l) => l.line === 1 && pieces.every((p) => l.text.includes(p))));

describe("an object of a one-line JSON report", () => {
  test("is found by its name with the field asked about, though they are in different chunks", async () => {
    // inflight.js: ten messages (about 2.4 KB) between its filePath and its counts, across a 4 KiB chunk edge.
    const from = report.indexOf('"filePath":"/tmp/ret6/eslintp/src/inflight.js"');
    const to = report.indexOf('"errorCount"', from);
    expect(Math.floor(from / 4096)).toBeLessThan(Math.floor(to / 4096));
    const { store, source } = await stored(report);
    const hits = top3(store, source, "inflight.js warningCount");
    expect(hits[0]!.title).toBe("$[3]");
    expect(showsAll(hits.slice(0, 1), ["src/inflight.js", '"errorCount":0,"fatalErrorCount":0,"warningCount":10'])).toBe(true);
  });

  test("answers how many of its own fields count", async () => {
    const { store, source } = await stored(report);
    const hits = top3(store, source, "how many errors in ast.js");
    expect(showsAll(hits, ["src/ast.js", '"errorCount":7,"fatalErrorCount":0,"warningCount":1'])).toBe(true);
  });

  test("is told from an object with the same fields by its name", async () => {
    // code.js and keyword.js both count 0 errors and 3 warnings; the hit must be code.js's.
    const { store, source } = await stored(report);
    const hits = top3(store, source, "code.js warningCount");
    expect(hits[0]!.title).toBe("$[1]");
    expect(showsAll(hits.slice(0, 1), ["src/code.js", '"warningCount":3'])).toBe(true);
    expect(hits[0]!.text).not.toContain("keyword.js");
  });

  test("a nested object is named by its key path and by the name of the object around it", async () => {
    // index.js has two eqeqeq messages (lines 38 and 48); ast.js has six that do not count.
    const { store, source } = await stored(report);
    const hits = top3(store, source, "eqeqeq index.js");
    expect(["$[2].messages[2]", "$[2].messages[3]"]).toContain(hits[0]!.title);
    expect(showsAll(hits.slice(0, 1), ['"ruleId":"eqeqeq"', "src/index.js"])).toBe(true);
  });
});

describe("the reader of a long JSON row", () => {
  const row =
    '[{"file":"a.js","messages":[{"rule":"x","line":3,"text":"bad var"},{"rule":"y","line":4}],"errors":2,"src":"var a = {\\"q\\":1}"}]';

  test("finds each object, its own short fields and its key path", () => {
    const line = jsonLine(row, true)!;
    const at = (s: string) => objectAt(line, row.indexOf(s));
    expect(objectPath(line, at('"y"'))).toBe("$[0].messages[1]");
    expect(objectPath(line, at('"errors"'))).toBe("$[0]");
    const own = line.objects[at('"errors"')]!.fields.map(([a, b]) => row.slice(a, b));
    // Braces inside a string are text; the messages array is not a field.
    expect(own).toEqual(['"file":"a.js"', '"errors":2', '"src":"var a = {\\"q\\":1}"']);
  });

  test("starting inside a string at a chunk edge, takes the containers it is in from the path where it starts", () => {
    const cut = row.slice(row.indexOf("a.js") + 2);
    expect(outerContainers("$[0].file")).toEqual([
      { array: true, name: "$", index: 0 },
      { array: false, name: "$[0]", index: 0 },
    ]);
    const line = jsonLine(cut, false, "$[0].file … $")!;
    expect(objectPath(line, objectAt(line, cut.indexOf('"y"')))).toBe("$[0].messages[1]");
    // The object the row began inside of gets the fields the row shows of it.
    const outer = line.objects[objectAt(line, cut.indexOf('"errors"'))]!;
    expect(outer.whole).toBe(false);
    expect(outer.fields.map(([a, b]) => cut.slice(a, b))).toContain('"errors":2');
  });

  test("nesting deeper than a document's is not read as records (a hostile line stays cheap)", () => {
    expect(jsonLine(`${"[".repeat(5000)}"x"${"]".repeat(5000)}`, true)).toBeNull();
    expect(jsonLine(`${"[".repeat(20)}{"a":1}${"]".repeat(20)}`, true)?.objects.length).toBe(1);
  });

  test("is not JSON for minified code or prose", () => {
    expect(jsonLine('!function(t,e){"object"==typeof exports&&(module.exports=e())}(this,function(){return 1});', true)).toBeNull();
    expect(jsonLine("The quick brown fox, said {someone}, jumps: over the lazy dog.", true)).toBeNull();
  });
});
