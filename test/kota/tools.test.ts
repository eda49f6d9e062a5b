import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { defaultConfig } from "../../src/config.ts";
import type { KotaLike } from "../../src/kota/request.ts";
import { createKotaService } from "../../src/kota/service.ts";
import { jsonSchema } from "../../src/surfaces/tools/definitions.ts";
import { KOTA_TOOLS, type KotaToolScope, kotaMcpTools, runKotaTool } from "../../src/surfaces/tools/kota-tools.ts";
import { countTokens } from "../../src/tokens/count.ts";
import { cleanupTempDirs, tempDir, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

function kotaFor(): KotaLike & { close(): Promise<void> } {
  const svc = createKotaService({
    dbPath: join(tempDir("kota-tools-"), "sidecar.db"),
    config: { kota: defaultConfig({ HOME: tempDir() }).kota },
  });
  return { kota: (r, o) => svc.handle(r, o), close: () => svc.close() };
}

/** Many files, each with many lines that match "widget": any answer about them is big. */
function bigRepo(): string {
  const files: Record<string, string> = { "src/widget.ts": "export function widget(n: number) { return n }\n" };
  for (let i = 0; i < 60; i++) {
    const body = Array.from({ length: 12 }, (_, k) => `export const widget${i}_${k} = widget(${k}); // widget line ${k} of file ${i}`).join(
      "\n",
    );
    files[`src/use${i}.ts`] = `import { widget } from "./widget";\n${body}\n`;
  }
  return writeRepo(files);
}

function scope(project: string, over: Partial<KotaToolScope> = {}): KotaToolScope {
  return { project, budgetBytes: 5120, confirmIndex: false, ...over };
}

const bytes = (s: string) => Buffer.byteLength(s);

describe("kota tools", () => {
  test("specs: short, pi-kota's names, arrays as JSON Schema arrays; what they cost per turn", () => {
    expect(KOTA_TOOLS.map((t) => t.name)).toEqual([
      "kota_index",
      "kota_search",
      "kota_deps",
      "kota_usages",
      "kota_impact",
      "kota_task_context",
    ]);
    const impact = jsonSchema(KOTA_TOOLS.find((t) => t.name === "kota_impact")!);
    expect(impact.properties.files_to_modify).toEqual({ type: "array", items: { type: "string" } });
    const deps = jsonSchema(KOTA_TOOLS.find((t) => t.name === "kota_deps")!);
    expect(deps.required).toEqual(["file_path"]);
    const tokens = countTokens(
      JSON.stringify(kotaMcpTools().map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }))),
    );
    console.log(`kota tool definitions: ${tokens} tokens per turn (o200k)`);
    expect(tokens).toBeLessThan(900);
  });

  test("arguments are checked before anything runs, and every problem says what to send", async () => {
    const kota = kotaFor();
    const root = writeRepo({ "src/a.ts": "export const a = 1\n" });
    const r1 = await runKotaTool(kota, "kota_deps", { direction: "sideways" }, scope(root));
    expect(r1.isError).toBe(true);
    expect(r1.text).toContain("kota_deps needs file_path");
    expect(r1.text).toContain("direction must be one of dependents, dependencies, both");
    const r2 = await runKotaTool(kota, "kota_deps", { file_path: "src/a.ts", depth: 7 }, scope(root));
    expect(r2.text).toContain("depth must be a whole number from 1 to 3");
    const r3 = await runKotaTool(kota, "kota_search", { query: "a", colour: "red" }, scope(root));
    expect(r3.text).toContain("unknown argument colour");
    expect((await runKotaTool(kota, "kota_frobnicate", {}, scope(root))).text).toContain("Unknown tool kota_frobnicate");
    // A comma-separated string is accepted where a list is expected.
    const tc = await runKotaTool(kota, "kota_task_context", { files: "src/a.ts" }, scope(root));
    expect(tc.isError).toBe(false);
    expect(tc.text).toContain("src/a.ts:");
    await kota.close();
  });

  test("first index: asks when there is a UI; headless says how to allow it; confirmIndex false just indexes, with progress", async () => {
    const kota = kotaFor();
    const root = writeRepo({ "src/a.ts": 'import { b } from "./b";\nexport const a = b;\n', "src/b.ts": "export const b = 1\n" });
    const headless = await runKotaTool(
      kota,
      "kota_deps",
      { file_path: "src/a.ts" },
      scope(root, { confirmIndex: true, consentHint: "run /kota index" }),
    );
    expect(headless.isError).toBe(true);
    expect(headless.text).toContain("needs the user's consent");
    expect(headless.text).toContain("run /kota index");
    expect(headless.text).toContain('"confirmIndex": false');
    const indexTool = await runKotaTool(kota, "kota_index", {}, scope(root, { confirmIndex: true }));
    expect(indexTool.text).toContain("needs the user's consent");
    const asked: string[] = [];
    const declined = await runKotaTool(
      kota,
      "kota_deps",
      { file_path: "src/a.ts" },
      scope(root, {
        confirmIndex: true,
        confirm: async (title) => {
          asked.push(title);
          return false;
        },
      }),
    );
    expect(asked).toEqual(["Index this repository?"]);
    expect(declined.text).toContain("declined");
    const progress: string[] = [];
    const yes = await runKotaTool(
      kota,
      "kota_deps",
      { file_path: "src/a.ts" },
      scope(root, { confirmIndex: true, confirm: async () => true, onProgress: (t) => progress.push(t) }),
    );
    expect(yes.isError).toBe(false);
    expect(yes.text).toContain("deps of src/a.ts");
    expect(yes.text).toContain("src/b.ts");
    expect(progress.at(-1)).toBe("kota: indexing 2/2 files");
    // Indexed now: no more questions, and kota_index runs incrementally without asking.
    const again = await runKotaTool(kota, "kota_index", {}, scope(root, { confirmIndex: true }));
    expect(again.text).toContain("indexed");
    expect(again.text).toContain("0 parsed now");
    const auto = writeRepo({ "x.ts": "export const x = 1\n" });
    const autoRun = await runKotaTool(kota, "kota_search", { query: "x" }, scope(auto, { confirmIndex: false }));
    expect(autoRun.isError).toBe(false);
    await kota.close();
  });

  test("a big answer is narrowed to the budget step by step, saying what was cut and how to narrow", async () => {
    const kota = kotaFor();
    const root = bigRepo();
    const snippet = await runKotaTool(kota, "kota_search", { query: "widget", output: "snippet", limit: 100 }, scope(root));
    expect(snippet.isError).toBe(false);
    expect(bytes(snippet.text)).toBeLessThanOrEqual(5120);
    expect(snippet.text).toContain("[Shortened to fit:");
    expect(snippet.text).toContain("Narrow it:");
    expect(snippet.details.level).toBeGreaterThan(0);
    // A roomy budget keeps the snippet as asked.
    const roomy = await runKotaTool(
      kota,
      "kota_search",
      { query: "widget", output: "snippet", limit: 5 },
      scope(root, { budgetBytes: 64 * 1024 }),
    );
    expect(roomy.details.level).toBe(0);
    expect(roomy.text).toContain("  > ");
    const usages = await runKotaTool(kota, "kota_usages", { symbol: "widget", file: "src/widget.ts" }, scope(root));
    expect(bytes(usages.text)).toBeLessThanOrEqual(5120);
    expect(usages.text).toMatch(/usages of widget .*: 780 uses in 60 files/);
    expect(usages.text).toContain("[Shortened to fit:");
    const deps = await runKotaTool(
      kota,
      "kota_deps",
      { file_path: "src/widget.ts", direction: "dependents" },
      scope(root, { budgetBytes: 1024 }),
    );
    expect(bytes(deps.text)).toBeLessThanOrEqual(1024);
    expect(deps.text).toContain("imported by (dependents) (60)");
    await kota.close();
  });

  test("an answer over the budget even at its narrowest goes to the store; the model gets its head and the receipt", async () => {
    const kota = kotaFor();
    const root = bigRepo();
    const stored: string[] = [];
    const store = async (text: string, label: string) => {
      stored.push(text);
      return `[stored as ctx_test1: ${bytes(text)} bytes, ${label}; context_search {"query": "...", "source": "ctx_test1"}]`;
    };
    const files = Array.from({ length: 60 }, (_, i) => `src/use${i}.ts`);
    const r = await runKotaTool(kota, "kota_task_context", { files }, scope(root, { budgetBytes: 600, store }));
    expect(r.isError).toBe(false);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toContain("src/use59.ts:");
    expect(bytes(stored[0]!)).toBeGreaterThan(600);
    expect(r.text).toContain("[stored as ctx_test1");
    expect(r.text).toContain("over the 600-byte budget even when narrowed");
    expect(r.details.stored).toBe(true);
    // Without a store, the answer is cut at the budget and says so.
    const cut = await runKotaTool(kota, "kota_task_context", { files }, scope(root, { budgetBytes: 600 }));
    expect(bytes(cut.text)).toBeLessThanOrEqual(600);
    expect(cut.text).toContain("Cut at the 600-byte budget");
    await kota.close();
  });

  test("impact puts the summary first; bad paths are answered, not thrown", async () => {
    const kota = kotaFor();
    const root = bigRepo();
    const r = await runKotaTool(kota, "kota_impact", { files_to_modify: ["src/widget.ts"], description: "rename widget" }, scope(root));
    expect(r.text.split("\n")[0]).toBe("impact: risk high");
    expect(r.text.split("\n")[1]).toContain("src/widget.ts has 60 direct dependents");
    const outside = await runKotaTool(kota, "kota_impact", { files_to_modify: ["/etc/hostname"] }, scope(root));
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain("outside the repository");
    await kota.close();
  });
});
