import { describe, expect, test } from "bun:test";
import type { StoredFacts } from "../../src/kota/builtin/parse/facts.ts";
import { redactFacts } from "../../src/kota/builtin/parse/redact-facts.ts";

const TOKEN = "ghp_4f9Qx2LmZ8rT1vB6nK3wY7sD0aH5jE2cU9pR";

function facts(signature: string, refNames: string[]): StoredFacts {
  return {
    symbols: [{ name: "apiClient", kind: "const", parent: null, lineStart: 1, lineEnd: 1, exported: true, signature }],
    imports: [{ specifier: "./http", kind: "import", line: 1 }],
    exports: [{ name: "apiClient", local: "apiClient", importIdx: null, imported: null, line: 1 }],
    refs: refNames.map((name): StoredFacts["refs"][number] => [0, name, null, 0, 1, "2:3c"]),
    error: null,
  };
}

describe("redactFacts", () => {
  test("a clean file's strings are learned and a file of known strings comes back as it is", () => {
    const known = new Set<string>();
    const first = facts("const apiClient = createClient()", ["createClient", "request"]);
    expect(redactFacts(first, known)).toBe(first);
    expect([...known].sort()).toEqual(["./http", "apiClient", "const apiClient = createClient()", "createClient", "request"]);
    const again = facts("const apiClient = createClient()", ["request"]);
    expect(redactFacts(again, known)).toBe(again);
  });

  test("a secret in a new string is redacted even when every other string is known, and nothing of that file is learned", () => {
    const known = new Set<string>();
    redactFacts(facts("const apiClient = createClient()", ["createClient"]), known);
    const before = known.size;
    const secret = facts(`const apiClient = createClient("${TOKEN}")`, ["createClient"]);
    const out = redactFacts(secret, known);
    expect(out.symbols[0]!.signature).toContain("[REDACTED:");
    expect(JSON.stringify(out)).not.toContain(TOKEN);
    expect(out.refs[0]![1]).toBe("createClient");
    expect(known.size).toBe(before);
    // Asked again, the same file is redacted again: a string with a secret never becomes known.
    expect(JSON.stringify(redactFacts(secret, known))).not.toContain(TOKEN);
  });

  test("a secret in a reference name is found among many known names", () => {
    const known = new Set<string>();
    const names = Array.from({ length: 50 }, (_, i) => `name${i}`);
    redactFacts(facts("const apiClient = 1", names), known);
    const out = redactFacts(facts("const apiClient = 1", [...names, TOKEN]), known);
    expect(out.refs.map((r) => r[1])).not.toContain(TOKEN);
    expect(out.refs.at(-1)![1]).toContain("[REDACTED:");
  });
});
