import { describe, expect, test } from "bun:test";
import { chunkText } from "../../src/store/chunk.ts";
import { detectKind, titleChunks } from "../../src/store/titles.ts";

function titles(text: string, cap = 512): string[] {
  return titleChunks(text, detectKind(text), chunkText(text, cap));
}

describe("titles", () => {
  test("markdown chunks are titled by their heading path", () => {
    const section = (h: string, n: number) => `${h}\n\n${"Some prose about the topic. ".repeat(n)}\n\n`;
    const md = section("# Guide", 5) + section("## Install", 12) + section("### Linux", 12) + section("## Usage", 12);
    const t = titles(md);
    expect(detectKind(md)).toBe("markdown");
    // Every heading names the chunk it starts in or continues into.
    for (const h of ["Install", "Linux", "Usage"]) expect(t.some((x) => x.includes(h))).toBe(true);
    expect(t[0]!.startsWith("Guide")).toBe(true);
    expect(t.some((x) => x.startsWith("Guide > Install > Linux") || x.startsWith("Guide > Install ·"))).toBe(true);
  });

  test("headings inside code fences are not headings", () => {
    const md = `# Real\n\n\`\`\`sh\n# not a heading\n${"echo hi\n".repeat(80)}\`\`\`\n${"text\n".repeat(50)}`;
    expect(titles(md).some((t) => t.includes("not a heading"))).toBe(false);
  });

  test("JSON chunks are titled by key path, array items by their id or name", () => {
    const data = {
      meta: { total: 40 },
      items: Array.from({ length: 40 }, (_, i) => ({ id: `item-${i}`, payload: "x".repeat(80), tags: ["a", "b"] })),
    };
    const pretty = JSON.stringify(data, null, 2);
    const t = titles(pretty);
    expect(detectKind(pretty)).toBe("json");
    expect(t.some((x) => /\$\.items\[\d+\]\(id=item-\d+\)/.test(x))).toBe(true);
    // Minified JSON (one long line) is titled the same way.
    const min = titles(JSON.stringify(data));
    expect(min.length).toBeGreaterThan(3);
    expect(min.slice(1).every((x) => x.startsWith("$.items["))).toBe(true);
  });

  test("array items named by a numeric id", () => {
    const json = JSON.stringify(
      Array.from({ length: 30 }, (_, i) => ({ name: undefined, id: 1000 + i, body: "y".repeat(60) })),
      null,
      1,
    );
    expect(titles(json).some((x) => /^\$\[\d+\]\(id=10\d\d\)/.test(x))).toBe(true);
  });

  test("plain text falls back to line ranges; broken JSON too", () => {
    expect(titles("a\nb\nc\n")).toEqual(["lines 1-3"]);
    expect(titles('{"a": [1, 2}')).toEqual(["line 1"]);
  });
});
