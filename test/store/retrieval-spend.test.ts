/**
 * Hits that spend the budget where the answer is: a table whose first column is right-aligned
 * keeps its rows under its header (their names say what each column is), and a first hit far
 * stronger than the others gets the lines after it before they get theirs (the answer a few
 * lines past what matched: a response's body after its headers). The outputs are made here.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { stemPrefix } from "../../src/store/search/lines.ts";
import { headersOf, structureOf } from "../../src/store/search/structure.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

const hex = (n: number, w: number) => n.toString(16).padStart(w, "0");

/** A section table as object-file dumpers print it: the index right-aligned, a flags line under each row. */
function sectionTable(): string[] {
  const names = [
    ".interp",
    ".hash",
    ".gnu.hash",
    ".dynsym",
    ".dynstr",
    ".gnu.version",
    ".gnu.version_r",
    ".rela.dyn",
    ".rela.plt",
    ".init",
  ];
  names.push(".plt", ".plt.got", ".plt.sec", ".fini", ".rodata", ".eh_frame_hdr", ".eh_frame", ".init_array", ".fini_array", ".dynamic");
  names.push(".got", ".got.plt", ".tm_clone_table", ".data.rel.ro", ".data", ".bss", ".comment", ".debug_info", ".debug_line", ".symtab");
  const rows = ["Program headers omitted", "", "Sections:", "Idx Name          Size      VMA               File off  Algn"];
  names.forEach((name, i) => {
    rows.push(
      `${String(i).padStart(3)} ${name.padEnd(13)} ${hex(0x30 + i * 0x111, 8)}  ${hex(0x400 + i * 0x1000, 16)}  ${hex(0x400 + i * 0x1000, 8)}  2**3`,
    );
    rows.push(`                  CONTENTS, ALLOC, LOAD, ${i % 3 === 0 ? "READONLY, CODE" : "DATA"}`);
  });
  return rows;
}

describe("a table whose first column is right-aligned", () => {
  test("keeps its rows siblings, named by the title and the columns' header above them", () => {
    const rows = sectionTable();
    const s = structureOf(rows, true);
    const header = rows.findIndex((r) => r.startsWith("Idx"));
    const first = rows.findIndex((r) => r.includes(" .interp "));
    const late = rows.findIndex((r) => r.includes(" .data "));
    expect(rows[late]!.startsWith(" 24")).toBe(true);
    // Not owned by the table's first row (whose index lines up with the header's first column).
    expect(s.owner[late]).not.toBe(first);
    expect(s.owner[late]).toBe(s.owner[first]!);
    expect(headersOf(s, late, rows)).toContain(header);
    expect(headersOf(s, late, rows)).toContain(header - 1);
  });

  test("answers a question naming a column and a row's name", async () => {
    const rows = sectionTable();
    const { store, source } = await stored(`${rows.join("\n")}\n`);
    const line = rows.findIndex((r) => r.includes(" .data ")) + 1;
    expect(shows(top3(store, source, "size of .data section"), line, ".data")).toBe(true);
  });
});

/** An HTTP exchange per request as a packet dump shows it: the body comes in its own packet after the headers. */
function exchanges(): { text: string; body: number } {
  const rows: string[] = [];
  let body = 0;
  const packet = (k: number, len: number) =>
    `06:41:${String(10 + k).padStart(2, "0")}.0${k}4385 IP 127.0.0.1.48080 > 127.0.0.1.467${k}: Flags [P.], seq 1:${len}, ack 182, win 64, options [nop,nop,TS val 7838${k} ecr 35682], length ${len}`;
  for (let k = 0; k < 40; k++) {
    const conflict = k === 25;
    rows.push(packet(k, 181), `E.....@.@..a......q@x${k}...@.......`, `........POST /api/orders/ORD-${k}/pay HTTP/1.1`);
    rows.push("Host: 127.0.0.1:48080", "User-Agent: curl/7.88.1", "Content-Type: application/json", "Content-Length: 19", "");
    rows.push(`{"amount":"${k}50.00"}`, packet(k, 172), `E...~.@.@..G....q@x${k}...=...@.......`);
    rows.push(`........HTTP/1.1 ${conflict ? "409 CONFLICT" : "200 OK"}`, "Server: Werkzeug/3.1.9 Python/3.11.7");
    rows.push("Date: Thu, 26 Nov 2026 06:41:50 GMT", "Content-Type: application/json", "Content-Length: 28", "Connection: close", "", "");
    for (const len of [0, 0, 0]) rows.push(packet(k, len), `E..4..@.@.......=.qA#${k}..@.(.....`, "........");
    rows.push(packet(k, 28), `E..P~.@.@.......qA#${k}..=...@.D.....`);
    rows.push(`........{"${conflict ? "error" : "status"}":"${conflict ? "amount mismatch" : "paid"}"}`, "");
    if (conflict) body = rows.length - 1;
  }
  return { text: `${rows.join("\n")}\n`, body };
}

describe("a first hit far stronger than the others", () => {
  test("shows the lines after it before the weaker hits take the budget", async () => {
    const { text, body } = exchanges();
    const { store, source } = await stored(text);
    const hits = top3(store, source, "409 response json body");
    expect(hits[0]!.lines.some((l) => l.text.includes("409 CONFLICT"))).toBe(true);
    expect(shows(hits, body, "amount mismatch")).toBe(true);
  });
});

describe("a query word ending in e", () => {
  test("finds the words made from it, as porter's stem does; a short stem keeps its e", () => {
    expect(stemPrefix("execute")).toBe("execut");
    expect(stemPrefix("compile")).toBe("compil");
    expect(stemPrefix("file")).toBe("file");
    expect(stemPrefix("size")).toBe("size");
    expect(stemPrefix("cache")).toBe("cache");
  });

  test("finds its noun on a one-line JSON plan", async () => {
    const node = (k: number) => ({
      "Node Type": k % 2 ? "Sort" : "Hash Join",
      "Startup Cost": 10.5 * k,
      "Total Cost": 20.25 * k,
      "Plan Rows": k,
    });
    const plan = [
      { Plan: { ...node(1), Plans: Array.from({ length: 40 }, (_, k) => node(k + 2)) }, "Planning Time": 0.412, "Execution Time": 25.128 },
    ];
    const { store, source } = await stored(`${JSON.stringify(plan)}\n`);
    expect(shows(top3(store, source, "how long did the query execute"), 1, '"Execution Time":25.128')).toBe(true);
  });
});

describe("a query naming a numbered thing as the output writes it", () => {
  test("finds `GC(4)` by its words on each line of that collection, not the chunk's first line", async () => {
    const rows: string[] = [];
    for (let k = 0; k < 8; k++) {
      const t = `[0.${String(120 + 3 * k).padStart(3, "0")}s]`;
      rows.push(`${t}[info][gc,start    ] GC(${k}) Pause Young (Normal) (G1 Evacuation Pause)`);
      for (const phase of [
        "Pre Evacuate Collection Set: 0.0ms",
        "Merge Heap Roots: 0.0ms",
        "Evacuate Collection Set: 1.3ms",
        "Other: 0.1ms",
      ])
        rows.push(`${t}[info][gc,phases   ] GC(${k})   ${phase}`);
      rows.push(
        `${t}[info][gc,heap     ] GC(${k}) Eden regions: ${k}->0(${k + 1})`,
        `${t}[info][gc          ] GC(${k}) Pause Young (Normal) ${k + 6}M->${k + 5}M(18M) 1.${k}85ms`,
      );
    }
    const { store, source } = await stored(`${rows.join("\n")}\n`);
    const line = rows.findIndex((r) => r.includes("GC(6) Pause Young")) + 1;
    const hits = top3(store, source, "GC(6)");
    expect(shows(hits, line, "GC(6) Pause Young")).toBe(true);
    expect(hits[0]!.lines.filter((l) => l.match).every((l) => l.text.includes("GC(6)"))).toBe(true);
  });
});

describe("an output's total on its last line", () => {
  test("is read when the query's words fill every chunk before it", async () => {
    const rows: string[] = [];
    const crates = ["serde", "tokio", "regex", "clap", "anyhow", "rand", "hyper", "bytes", "log", "itoa"];
    for (let k = 0; k < 1800; k++) {
      const crate = crates[k % crates.length]!;
      rows.push(`${4 + (k % 7) * 4}\tbuild_cache/debug/deps/lib${crate}-${(k * 7919).toString(16)}.${k % 3 ? "rmeta" : "rlib"}`);
      if (k % 60 === 59) rows.push(`${900 + k}\tbuild_cache/debug/deps`);
    }
    rows.push("70312\tbuild_cache/debug", "81234\tbuild_cache");
    const { store, source } = await stored(`${rows.join("\n")}\n`);
    expect(shows(top3(store, source, "total disk usage of build_cache"), rows.length, "81234\tbuild_cache")).toBe(true);
  });
});

describe("the line that names a hit's record", () => {
  test("is shown with the lines after it: the record's opening says what happened", async () => {
    const rows = [
      "running 4 tests",
      "test tests::cart_empty_total ... ok",
      "test tests::checkout_rounds_totals ... FAILED",
      "",
      "failures:",
      "",
    ];
    const frames = (name: string) => {
      const out: string[] = [];
      const fns = ["std::panicking::begin_panic_handler", "core::panicking::panic_fmt", "core::panicking::assert_failed_inner"];
      fns.push(
        "core::panicking::assert_failed",
        `shop::tests::${name}`,
        `shop::tests::${name}::{{closure}}`,
        "core::ops::function::FnOnce::call_once",
      );
      for (const [k, f] of fns.entries())
        out.push(
          `  ${String(k).padStart(2)}: ${f}`,
          `             at /rustc/0123456789abcdef0123456789abcdef01234567/library/core/src/panicking.rs:${100 + 17 * k}:5`,
        );
      out.push("  7: <fn() -> core::result::Result<(), alloc::string::String> as core::ops::function::FnOnce<()>>::call_once");
      out.push("             at /rustc/0123456789abcdef0123456789abcdef01234567/library/core/src/ops/function.rs:250:5");
      return out;
    };
    rows.push("---- tests::checkout_rounds_totals stdout ----", "");
    rows.push("thread 'tests::checkout_rounds_totals' (5120) panicked at src/cart.rs:41:9:", "assertion `left == right` failed");
    const answer = rows.push("  left: 1999");
    rows.push(
      " right: 2000",
      "stack backtrace:",
      ...frames("checkout_rounds_totals"),
      "note: run with `RUST_BACKTRACE=full` for a verbose backtrace.",
      "",
    );
    rows.push(
      "---- tests::cart_discount_applies stdout ----",
      "",
      "thread 'tests::cart_discount_applies' (5121) panicked at src/cart.rs:77:5:",
    );
    rows.push(
      "attempt to subtract with overflow",
      "stack backtrace:",
      ...frames("cart_discount_applies"),
      "",
      "test result: FAILED. 2 passed; 2 failed",
    );
    const { store, source } = await stored(`${rows.join("\n")}\n`);
    expect(shows(top3(store, source, "checkout_rounds_totals assertion result"), answer, "left: 1999")).toBe(true);
  });
});
