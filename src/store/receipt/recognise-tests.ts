/**
 * Test runners of other languages: pytest, go test and cargo test (and a cargo build that failed
 * to compile). Each says the counts, the failing tests by name, and where each failure is.
 */
import { type Finding, SCORE } from "./line-score.ts";
import { failedList, plural, type Recogniser } from "./recogniser.ts";

const MAX_FAILURES = 200;
const MAX_LINES = 40;

function findings(hits: { line: number; text: string }[], score: number): Finding[] {
  return hits.map((h) => ({ line: h.line, text: h.text, score }));
}

export const pytest: Recogniser = {
  kind: "pytest",
  detect: (v) =>
    /^=+ test session starts =+$/m.test(v.headText) || /^=+ .*\b(?:passed|failed|errors?)\b.* in [\d.]+s.*=+$/m.test(v.tailText),
  analyze(v) {
    const verdict = v.scan("==", /^=+ (.*\bin [\d.]+s\b.*?) =+$/, 1).hits[0];
    const summary = verdict ? [verdict.m[1]!] : [];
    const short = [...v.scan("FAILED ", /^FAILED \S/, MAX_FAILURES).hits, ...v.scan("ERROR ", /^ERROR \S/, MAX_FAILURES).hits];
    // Without the short summary (-rN), the failure sections' headers name the tests.
    const names =
      short.length > 0
        ? short.map((h) => h.text.replace(/^FAILED /, ""))
        : v.scan("___ ", /^_{3,} (\S.*?) _{3,}$/, MAX_FAILURES).hits.map((h) => h.m[1]!);
    summary.push(...failedList(names, 10, ""));
    const important = [
      // The first "E   " line of each failure says what was raised; the rest is its detail.
      ...findings(
        v.scan("E   ", /^E {3,}\S/, MAX_LINES).hits.filter((h, i, all) => i === 0 || all[i - 1]!.line !== h.line - 1),
        SCORE.errorLine,
      ),
      ...findings(v.scan(".py:", /^\S+\.py:\d+: \w+$/, MAX_LINES).hits, SCORE.errorCode),
      ...findings(v.scan("Interrupted: ", /^Interrupted: /, 2).hits, SCORE.failure),
      ...findings(v.scan("ERROR collecting ", /ERROR collecting /, 4).hits, SCORE.failure),
    ];
    return { summary: summary.map((s) => s.trim()), important };
  },
};

export const goTest: Recogniser = {
  kind: "go-test",
  detect: (v) =>
    /^(?:--- (?:FAIL|PASS): \S|=== RUN {3}\S|ok {2}\t\S|FAIL\t\S|\? {3}\t\S)/m.test(v.headText) || /^(?:ok {2}|FAIL)\t\S/m.test(v.tailText),
  analyze(v) {
    const packages = v.scan("\t", /^(ok {2}|FAIL|\? {3})\t(\S+)(?:\t| \[|$)/, 400).hits;
    const failedPkgs = packages.filter((p) => p.m[1] === "FAIL").map((p) => p.text.replace(/^FAIL\t/, "").replace(/\t.*$/, ""));
    const okPkgs = packages.filter((p) => p.m[1]!.startsWith("ok")).length;
    // Counts are of top-level tests; the names include failed subtests ("TestX/case").
    let passed = 0;
    let failedTop = 0;
    const failed: string[] = [];
    // Failed tests as go prints them ("--- FAIL: TestX/case (0.00s)"): quoted, so a search for the line finds it.
    v.scan("--- ", /^( *)--- (FAIL|PASS): (\S+)/, 0, ({ m, text }) => {
      if (m[2] === "PASS") passed += m[1] === "" ? 1 : 0;
      else {
        failedTop += m[1] === "" ? 1 : 0;
        if (failed.length < MAX_FAILURES) failed.push(text.trim());
      }
    });
    const summary: string[] = [];
    const tests = failed.length + passed > 0 ? `tests: ${failedTop} failed${passed > 0 ? `, ${passed} passed` : ""}` : "";
    if (packages.length > 0) summary.push(`packages: ${failedPkgs.length} failed, ${okPkgs} ok${tests ? `; ${tests}` : ""}`);
    else if (tests) summary.push(tests);
    for (const p of failedPkgs.slice(0, 4)) summary.push(`FAIL ${p}`);
    summary.push(...failedList(failed, 10, "").map((f) => f.trim()));
    const panics = v.scan("panic: ", /^panic: /, 4).hits;
    summary.push(...panics.slice(0, 2).map((p) => p.text));
    const important = [
      ...findings(panics, SCORE.failure),
      ...findings(v.scan("_test.go:", /^[ \t]+\S+_test\.go:\d+: /, MAX_LINES).hits, SCORE.errorLine),
      ...findings(v.scan(".go:", /^\S+\.go:\d+:\d+: /, MAX_LINES).hits, SCORE.errorLine),
      ...findings(v.scan("# ", /^# \S/, 8).hits, SCORE.errorCode),
    ];
    return { summary, important };
  },
};

const RUST_ERROR = /^error(?:\[E\d{4}\])?: (?!test failed|\d+ targets? failed)/;

export const cargoTest: Recogniser = {
  kind: "cargo-test",
  detect: (v) => /^running \d+ tests?$/m.test(v.headText) && (/^test result: /m.test(v.tailText) || /^test result: /m.test(v.headText)),
  analyze(v) {
    const summary: string[] = [];
    // Each "test result:" belongs to the target named by the "Running"/"Doc-tests" line before it.
    const events = [
      ...v.scan("Running ", /^ +Running (?:unittests )?(\S+)/, 500).hits.map((h) => ({ line: h.line, target: h.m[1]! })),
      ...v.scan("Doc-tests ", /^ +Doc-tests (\S+)/, 500).hits.map((h) => ({ line: h.line, target: `doc-tests ${h.m[1]}` })),
      ...v.scan("test result: ", /^test result: (.*)$/, 500).hits.map((h) => ({ line: h.line, result: h.m[1]! })),
    ].sort((a, b) => a.line - b.line);
    let target = "";
    for (const e of events) {
      if ("target" in e) target = e.target;
      else if (summary.length < 8)
        summary.push(
          `${target ? `${target}: ` : ""}${e.result.replace(/; 0 measured; 0 filtered out/, "").replace(/; finished in .*$/, "")}`,
        );
    }
    const rerun = v.scan("error: ", /^error: (?:\d+ targets? failed:$|test failed, to rerun pass (.+)$)/, 20).hits;
    const targets = rerun.filter((h) => h.m[1]).map((h) => h.m[1]!);
    if (targets.length > 0) summary.push(`failed targets: ${targets.join(", ")}`);
    const failed = v.scan(" ... FAILED", /^test (\S+)(?: - should panic)? \.\.\. FAILED$/, MAX_FAILURES).hits.map((h) => h.m[1]!);
    summary.push(...failedList(failed));
    const ignored = v.scan(" ... ignored", /^test (\S+) \.\.\. ignored(?:, (.*))?$/, 20).hits;
    if (ignored.length > 0)
      summary.push(
        `ignored: ${ignored
          .slice(0, 4)
          .map((h) => (h.m[2] ? `${h.m[1]} (${h.m[2]})` : h.m[1]))
          .join(", ")}`,
      );
    const important = [
      ...findings(v.scan("panicked at ", /^thread '.*' (?:\(\d+\) )?panicked at /, MAX_LINES).hits, SCORE.failure),
      ...findings(v.scan("error", RUST_ERROR, 20).hits, SCORE.errorLine),
      ...findings(rerun, SCORE.errorCode),
    ];
    return { summary, important };
  },
};

export const cargoBuild: Recogniser = {
  kind: "cargo",
  detect: (v) => /^ +(?:Compiling|Checking) \S+ v\d/m.test(v.headText) && /^(?:error|warning)(?:\[E\d{4}\])?: /m.test(v.tailText),
  analyze(v) {
    const codes = new Map<string, number>();
    const { hits, total } = v.scan("error", RUST_ERROR, 20, ({ text }) => {
      const code = /^error\[(E\d{4})\]/.exec(text)?.[1];
      if (code) codes.set(code, (codes.get(code) ?? 0) + 1);
    });
    const verdict = v.scan("could not compile", /^error: could not compile /, 4).hits;
    const warnings = v.scan("warning", /^warning: (?!.*\bgenerated \d+ warnings?)/, 0).total;
    const summary = verdict.map((h) => h.text);
    summary.push(`${plural(total - verdict.length, "error")}, ${plural(warnings, "warning")}`);
    if (codes.size > 0) summary.push(`codes: ${[...codes].map(([c, n]) => `${c} ×${n}`).join(", ")}`);
    // Each error's " --> file:line:col" says where.
    const where = hits.flatMap((h) => v.after(h, 1).filter((l) => /^ *--> /.test(l.text)));
    return { summary, important: [...findings(hits, SCORE.errorLine), ...findings(where, SCORE.frame)] };
  },
};
