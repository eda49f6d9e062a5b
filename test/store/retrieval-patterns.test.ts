/**
 * The kinds of place search used to miss on outputs nobody tuned it for (issue 20), each on real
 * tool output made for these tests (fixtures/retrieval/, see its README; none is in the retrieval
 * benchmark): the answer a few lines further in the same record, one long line, identifiers
 * written together or apart, numbers matched whole, near-identical records.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { EngineDeps } from "../../src/store/engine-deps.ts";
import { type Hit, search } from "../../src/store/search/search.ts";
import { captureIndexed, cleanupTempDirs, testStore } from "../helpers.ts";

afterAll(cleanupTempDirs);

const DIR = join(import.meta.dir, "fixtures", "retrieval");

function fixture(name: string): string {
  const raw = readFileSync(join(DIR, name));
  return new TextDecoder().decode(name.endsWith(".gz") ? gunzipSync(raw) : raw);
}

/** The 1-based number of the (first) line holding `needle`, after line `after`. */
function lineOf(text: string, needle: string, after = 0): number {
  const lines = text.split("\n");
  const i = lines.findIndex((l, k) => k >= after && l.includes(needle));
  if (i < 0) throw new Error(`no line with ${needle}`);
  return i + 1;
}

const shows = (h: Hit | undefined, line: number, text: string) => h?.lines.some((l) => l.line === line && l.text.includes(text)) ?? false;

async function stored(name: string, chunkBytes?: number): Promise<{ store: EngineDeps; text: string; source: string }> {
  const store = testStore((c) => {
    if (chunkBytes) c.capture.chunkBytes = chunkBytes;
  });
  const text = fixture(name);
  const r = await captureIndexed(store, { text, tool: "bash", force: true });
  if (!r.stored) throw new Error("not stored");
  return { store, text, source: r.sourceId };
}

function top3(store: EngineDeps, source: string, query: string): Hit[] {
  const r = search(store, { query, source, limit: 3 });
  if (!r.ok) throw new Error(r.message);
  return r.hits;
}

describe("the answer further on in the same record", () => {
  test("a package stanza: its Homepage under its Package line (dpkg -s)", async () => {
    const { store, text, source } = await stored("dpkg-s-archivers.txt");
    const hit = top3(store, source, "gzip homepage")[0];
    expect(shows(hit, lineOf(text, "Package: gzip"), "gzip")).toBe(true);
    expect(shows(hit, lineOf(text, "Homepage: https://www.gnu.org/software/gzip/"), "gnu.org/software/gzip")).toBe(true);
  });

  test("a test-collection ERROR header: the exception nine lines under it (pytest)", async () => {
    const { store, text, source } = await stored("pytest-collect-shipping.txt");
    const hit = top3(store, source, "ERROR collecting test_labels")[0];
    expect(hit?.lines.some((l) => l.match && l.text.includes("ERROR collecting tests/test_labels.py"))).toBe(true);
    expect(shows(hit, lineOf(text, "No module named 'shipping.labels'"), "No module named 'shipping.labels'")).toBe(true);
  });

  test("the successful call after a run of failed attempts of the same call (strace)", async () => {
    const { store, text, source } = await stored("strace-xz.txt");
    const success = lineOf(text, '"/lib/x86_64-linux-gnu/liblzma.so.5"');
    const hits = top3(store, source, "liblzma.so.5 openat");
    expect(shows(hits[0], success, "= 3")).toBe(true);
    // The run is one hit, its failures left out in the middle, not three hits of failures.
    expect(hits.filter((h) => h.lines.some((l) => l.text.includes("liblzma.so.5") && l.text.includes("ENOENT"))).length).toBe(1);
  });

  test("a JSON key at the end of a chunk: the value on the next line, in the next chunk (npm view --json)", async () => {
    const { store, text, source } = await stored("npm-view-semver.json", 512);
    const chunks = store.db.query<{ line_end: number; content: string }, []>("SELECT line_end, content FROM chunks ORDER BY ordinal").all();
    const lines = text.split("\n");
    // Chunks that end right after a key that opens an object or array.
    const edges = chunks
      .map((c) => ({ line: c.line_end, key: /^\s*"([a-z][\w-]*)": [{[]$/.exec(lines[c.line_end - 1]!)?.[1] }))
      .filter((e): e is { line: number; key: string } => e.key !== undefined && text.split(`"${e.key}"`).length === 2);
    expect(edges.length).toBeGreaterThan(0);
    for (const e of edges) {
      const hit = top3(store, source, e.key)[0];
      expect(shows(hit, e.line + 1, lines[e.line]!.trim().slice(0, 20))).toBe(true);
    }
  });
});

describe("one long line", () => {
  test("a CSS custom property: its definition, not its uses (minified CSS, one 82 KB line)", async () => {
    const { store, source } = await stored("pico.min.css.gz");
    for (const [query, definition] of [
      ["--pico-form-element-spacing-vertical", "--pico-form-element-spacing-vertical:0.75rem"],
      ["font family sans serif", "--pico-font-family-sans-serif:system-ui"],
    ] as const) {
      const hits = top3(store, source, query);
      expect(hits.some((h) => h.lines.some((l) => l.match && l.text.includes(definition)))).toBe(true);
    }
  });

  test("the element whose name matches, not the line's first one (one-line XML test report)", async () => {
    const { store, source } = await stored("pytest-junit-zones.xml");
    for (const [query, element] of [
      ["test_us_weights 16", 'name="test_us_weights[16]"'],
      ["eu weights 34", 'name="test_eu_weights[34]"'],
    ] as const) {
      const hits = top3(store, source, query);
      expect(hits.some((h) => h.lines.some((l) => l.line === 1 && l.text.includes(element)))).toBe(true);
    }
  });

  test("several places of one long line are several hits", async () => {
    const { store, source } = await stored("pico.min.css.gz");
    const hits = top3(store, source, "pico border radius");
    expect(hits.length).toBe(3);
    expect(new Set(hits.map((h) => h.lines.find((l) => l.match)?.text)).size).toBe(3);
  });
});

describe("identifiers written together or apart", () => {
  test("words find camelCase keys, and snake_case finds them too (tsc --showConfig)", async () => {
    const { store, text, source } = await stored("tsc-showconfig.json");
    for (const [query, key] of [
      ["strict null checks", '"strictNullChecks": true'],
      ["no_unchecked_indexed_access", '"noUncheckedIndexedAccess": true'],
      ["exact-optional-property-types", '"exactOptionalPropertyTypes": true'],
      ["property init", '"strictPropertyInitialization": true'],
    ] as const) {
      const hit = top3(store, source, query)[0];
      expect(shows(hit, lineOf(text, key), key)).toBe(true);
    }
  });

  test("a query that looks like an option is a query", async () => {
    const { store, source } = await stored("pico.min.css.gz");
    const r = search(store, { query: "--pico-font-family-emoji", source, limit: 3 });
    expect(r.ok && r.hits.length > 0).toBe(true);
  });
});

describe("numbers are words", () => {
  test("a count matches whole: 100 is not 1001 nor 10000 (cProfile)", async () => {
    const { store, text, source } = await stored("cprofile-ledger.txt");
    const hit = top3(store, source, "100 ledger.py")[0];
    const best = hit?.lines.find((l) => l.match);
    expect(best?.line).toBe(lineOf(text, "ledger.py:10(rotate)"));
  });

  test("a table row comes with its header line (cProfile)", async () => {
    const { store, text, source } = await stored("cprofile-ledger.txt");
    const hit = top3(store, source, "rotate cumtime")[0];
    expect(shows(hit, lineOf(text, "ledger.py:10(rotate)"), "rotate")).toBe(true);
    expect(shows(hit, lineOf(text, "ncalls  tottime"), "cumtime")).toBe(true);
  });
});

describe("near-identical records", () => {
  test("a package's own stanza beats stanzas that only name it (dpkg -s)", async () => {
    const { store, text, source } = await stored("dpkg-s-archivers.txt");
    const own = lineOf(text, "Package: libbz2-1.0");
    const hit = top3(store, source, "libbz2-1.0 version")[0];
    expect(shows(hit, own, "libbz2-1.0")).toBe(true);
    expect(shows(hit, lineOf(text, "Version: 1.0.8-5+b1", own), "1.0.8-5+b1")).toBe(true);
  });

  test("among many rows of one file, the row of the named function (cProfile)", async () => {
    const { store, text, source } = await stored("cprofile-ledger.txt");
    const hit = top3(store, source, "ledger.py checksum")[0];
    expect(hit?.lines.find((l) => l.match)?.line).toBe(lineOf(text, "ledger.py:2(checksum)"));
  });
});

describe("what a hit shows is the text", () => {
  test("every line of every hit is the stored line with that number, or a cut of it", async () => {
    const queries: Record<string, string[]> = {
      "dpkg-s-archivers.txt": ["gzip homepage", "libbz2-1.0", "depends libc6", "tar suggests"],
      "pytest-collect-shipping.txt": ["ModuleNotFoundError", "collecting", "customs.json"],
      "strace-xz.txt": ["liblzma.so.5", "ENOENT", "exited"],
      "npm-view-semver.json": ["engines", "7.6.3", "maintainers email"],
      "pico.min.css.gz": ["--pico-border-radius", "font family", "switch"],
      "cprofile-ledger.txt": ["ledger.py", "100", "cumtime encoder"],
    };
    for (const [name, qs] of Object.entries(queries)) {
      // Small chunks: more chunk edges, neighbours cut to the lines next to a candidate.
      for (const chunkBytes of [512, 4096]) {
        const { store, text, source } = await stored(name, chunkBytes);
        const lines = text.split("\n");
        for (const q of qs) {
          for (const h of top3(store, source, q)) {
            for (const l of h.lines) {
              const real = lines[l.line - 1]!.replace(/\r$/, "");
              for (const piece of l.text.split("…"))
                expect({ q, line: l.line, ok: real.includes(piece) }).toEqual({ q, line: l.line, ok: true });
            }
          }
        }
      }
    }
  }, 60_000);
});
