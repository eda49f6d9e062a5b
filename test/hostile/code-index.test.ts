/**
 * Hostile repositories against the code index: sources that crash the native parser, a .gitignore
 * line that stalls a backtracking glob, and secrets in code. The process that serves the queries
 * survives, the rest of the repository is indexed, and no secret reaches the database file.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "../../src/config.ts";
import { createKotaService } from "../../src/kota/service.ts";
import { cleanupTempDirs, ok, tempDir, writeRepo } from "../kota/fixture-repo.ts";

afterAll(cleanupTempDirs);

const BIN = join(import.meta.dir, "../../dist/pi-sidecar");

/** 10,000 nested brackets (20 KB) and a 700 KB `"ab" + "ab" + ...`: each segfaulted the parser, and the process with it. */
function hostileSources(): Record<string, string> {
  const terms: string[] = [];
  for (let i = 0; i < 116_000; i++) terms.push('"ab"');
  return {
    "src/nested.ts": `export const x = ${"[".repeat(10_000)}${"]".repeat(10_000)};\n`,
    "src/concat.ts": `export const y = ${terms.join(" + ")};\n`,
    "src/ok.ts": "export function ok() {\n  return 1;\n}\n",
    "src/uses.ts": 'import { ok } from "./ok";\nexport const two = ok() + 1;\n',
  };
}

function service(dir = tempDir("kota-hostile-")) {
  const config = { kota: { ...defaultConfig({ HOME: tempDir() }).kota, backend: "builtin" as const } };
  return createKotaService({ dbPath: join(dir, "sidecar.db"), config, freshnessMs: 0, watch: false });
}

/** Every byte of the database, its WAL and its shared memory, as text. */
function databaseBytes(dir: string): string {
  return readdirSync(dir)
    .filter((f) => f.startsWith("sidecar.db"))
    .map((f) => readFileSync(join(dir, f)).toString("latin1"))
    .join("\n");
}

describe("hostile sources", () => {
  test("files that crash the parser are reported and skipped; the rest is indexed and later queries answer", async () => {
    const root = writeRepo(hostileSources());
    const svc = service();
    const r = ok(await svc.handle({ op: "index", repo: root }));
    const result = r.op === "index" ? r.result : null;
    expect(result?.files).toBe(4);
    const errors = Object.fromEntries((result?.errors ?? []).map((e) => [e.file, e.message]));
    expect(Object.keys(errors).sort()).toEqual(["src/concat.ts", "src/nested.ts"]);
    expect(errors["src/nested.ts"]).toContain("nested more than");
    expect(errors["src/concat.ts"]).toContain("not parsed");
    for (let i = 0; i < 3; i++) {
      const deps = ok(await svc.handle({ op: "deps", repo: root, file: "src/ok.ts", direction: "dependents" }));
      expect(deps.op === "deps" && deps.result.dependents.direct).toEqual(["src/uses.ts"]);
    }
    // The skipped files are still found by their text.
    const found = ok(await svc.handle({ op: "search", repo: root, query: "ab", output: "paths" }));
    expect(found.op === "search" && found.result.paths.map((p) => p.path)).toContain("src/concat.ts");
    await svc.close();
  }, 60_000);

  test.skipIf(!existsSync(BIN))(
    "`pi-sidecar mcp` indexes a hostile repository and keeps answering",
    async () => {
      const root = writeRepo(hostileSources());
      const home = tempDir("kota-hostile-home-");
      writeFileSync(join(home, "pi-sidecar.json"), JSON.stringify({ kota: { backend: "builtin", confirmIndex: false } }));
      const mcp = Bun.spawn([BIN, "mcp"], {
        cwd: root,
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
        env: { PATH: process.env.PATH ?? "", HOME: home, PI_CODING_AGENT_DIR: home },
      });
      const send = (msg: object) => {
        mcp.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...msg })}\n`);
        mcp.stdin.flush();
      };
      const reader = mcp.stdout.getReader();
      let buffered = "";
      const reply = async (id: number): Promise<{ result?: { content: { text: string }[]; isError?: boolean } }> => {
        for (;;) {
          const line = buffered.split("\n").find((l) => l.includes(`"id":${id}`));
          if (line) return JSON.parse(line);
          const { value, done } = await reader.read();
          if (done) throw new Error(`the MCP server exited before answering ${id}`);
          buffered += new TextDecoder().decode(value);
        }
      };
      send({
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      });
      await reply(1);
      send({ method: "notifications/initialized" });
      send({ id: 2, method: "tools/call", params: { name: "kota_index", arguments: { path: root } } });
      const indexed = await reply(2);
      expect(indexed.result?.content[0]?.text).toContain("4 files");
      send({ id: 3, method: "tools/call", params: { name: "kota_deps", arguments: { file_path: "src/ok.ts" } } });
      expect((await reply(3)).result?.content[0]?.text).toContain("src/uses.ts");
      expect(mcp.exitCode).toBeNull();
      mcp.stdin.end();
      await mcp.exited;
    },
    60_000,
  );
});

describe("hostile ignore files", () => {
  // As a regular expression, this line backtracks for minutes against a 40-character name.
  test("a .gitignore line of many stars does not stall indexing", async () => {
    const name = `${"a".repeat(40)}.ts`;
    const root = writeRepo({
      ".gitignore": `${"*a".repeat(13)}*b\n*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*c.ts\n`,
      [`src/${name}`]: "export const long = 1;\n",
      [`src/${"a".repeat(15)}c.ts`]: "export const ignored = 1;\n",
    });
    const svc = service();
    const r = ok(await svc.handle({ op: "index", repo: root }));
    expect(r.op === "index" && r.result.files).toBe(1);
    await svc.close();
  }, 10_000);
});

describe("secrets in code", () => {
  const TOKEN = "ghp_4f9Qx2LmZ8rT1vB6nK3wY7sD0aH5jE2cU9pR";
  const PASSWORD = "s3cretP4ssw0rd";
  test("tokens in signatures, specifiers and text never reach the database; sensitive files are not read", async () => {
    const dir = tempDir("kota-secret-db-");
    const root = writeRepo({
      "src/config.ts": `export const GITHUB_TOKEN = "${TOKEN}";\nexport function login(password = "${PASSWORD}") {\n  return password;\n}\n`,
      "src/remote.ts": `import x from "https://user:${PASSWORD}@example.com/mod.js";\nexport const y = x;\n`,
      ".env.ts": 'export const DEPLOY_KEY = "AKIAIOSFODNN7EXAMPLE";\n',
    });
    const svc = service(dir);
    const r = ok(await svc.handle({ op: "index", repo: root }));
    expect(r.op === "index" && r.result.files).toBe(2);
    const sym = ok(await svc.handle({ op: "search", repo: root, query: "GITHUB_TOKEN", output: "paths" }));
    const signature = sym.op === "search" ? sym.result.symbols.find((s) => s.name === "GITHUB_TOKEN")?.signature : "";
    expect(signature).toContain("[REDACTED:");
    await svc.close();
    const bytes = databaseBytes(dir);
    expect(bytes).not.toContain(TOKEN);
    expect(bytes).not.toContain(PASSWORD);
    expect(bytes.toLowerCase()).not.toContain("akiaiosfodnn7example");
    expect(bytes).not.toContain(".env.ts");
  }, 60_000);
});
