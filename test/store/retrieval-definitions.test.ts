/**
 * On minified outputs written for these tests (none from a benchmark set): a place on a long row
 * that uses a name (`z-index:var(--ui-modal-z)`, `this.options.mode`) brings the place that gives
 * the name a literal value (`--ui-modal-z:40`, `mode:"strict"`) right after it; a name given
 * another name's value or a call (`r.Codec=n(13)`) is no definition of a value.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { definitionOf } from "../../src/store/search/definitions.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

/** A minified stylesheet on one line: a component's custom properties defined in its rule, used a little further on. */
function stylesheet(): string {
  const parts: string[] = [];
  for (let i = 0; i < 60; i++) parts.push(`.c${i}{margin:${i}px;padding:var(--ui-gap);border-radius:var(--ui-radius)}`);
  parts.push(".modal{--ui-modal-z:40;--ui-modal-bg:#000a;--ui-modal-gap:2rem;display:none;position:fixed}");
  for (let i = 0; i < 15; i++) parts.push(`.e${i}{margin:${i}px;padding:${i}px}`);
  for (let i = 0; i < 12; i++) parts.push(`.modal-part${i}{z-index:${i};color:#${(100 + i).toString(16)}}`);
  parts.push(".modal-card{position:fixed;inset:0;z-index:var(--ui-modal-z);display:flex}");
  for (let i = 0; i < 60; i++) parts.push(`.d${i}{margin:${i}px;z-index:${i % 9}}`);
  return parts.join("");
}

describe("a name used on a long row", () => {
  test("brings the place that gives it its value (`--ui-modal-z:40` for `z-index:var(--ui-modal-z)`)", async () => {
    const { store, source } = await stored(stylesheet());
    const hits = top3(store, source, "modal z-index");
    expect(hits.some((h) => h.lines.some((l) => l.text.includes("--ui-modal-z:40")))).toBe(true);
  });

  test("keeps two places of one word in different names apart (`u.zero=` and `u.zeroHash=`)", async () => {
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `f${i}=function(t){return t+${i}}`).join(",");
    const line = `var u=function(t,n){this.lo=t,this.hi=n},${filler(80)},e=u.zero=new u(0,0),e.toNumber=function(){return 0},u.zeroHash="\\0\\0\\0\\0",${filler(
      80,
    )},r.Bits=u,r.toHash=function(t){return t?r.Bits.from(t).toHash():r.Bits.zeroHash}`;
    const { store, source } = await stored(line);
    const hits = top3(store, source, "Bits zero");
    expect(hits.some((h) => h.lines.some((l) => l.text.includes("e=u.zero=new u(0,0)")))).toBe(true);
  });
});

describe("definitionOf", () => {
  test("finds a name given a literal value, not a use, a comparison, a URL or a call", () => {
    expect(definitionOf("a{z-index:var(--m-z)}:root{--m-z:40}", "--m-z")).toBe(27);
    expect(definitionOf('var m={mode:"strict",x:1}', "mode")).toBe(7);
    expect(definitionOf("r.codec=n(13),r.level=!0", "codec")).toBe(-1);
    expect(definitionOf("r.codec=n(13),r.level=!0", "level")).toBe(16);
    expect(definitionOf("if(a.mode==b)x=1", "mode")).toBe(-1);
    expect(definitionOf("see http://host/x", "http")).toBe(-1);
    expect(definitionOf("a{display:none;color:red}", "display")).toBe(2);
  });
});
