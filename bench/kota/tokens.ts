/**
 * Tokens an agent spends answering ten typical code questions on hono: with the kota_* tools (the
 * real answers, within the 5 KB budget) against reading and grepping (the real outputs of grep -rn
 * and of reading the files a careful agent would read). Both counted with the real tokenizer
 * (o200k), the call as the model writes it plus what comes back. Whether each answer contains a
 * fact the question needs is checked too, so fewer tokens are not bought with missing answers.
 * Run: bun bench/kota/tokens.ts
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "../../src/config.ts";
import { createKotaService } from "../../src/kota/service.ts";
import { kotaMcpTools, runKotaTool } from "../../src/surfaces/tools/kota-tools.ts";
import { countTokens } from "../../src/tokens/count.ts";
import { createScratch } from "../temp.ts";
import { unpackCorpus } from "./corpora.ts";

type Step = { grep: string; in: string; flags?: string[] } | { read: string; lines?: number };
type Question = { question: string; kota: { tool: string; args: Record<string, unknown> }[]; reading: Step[]; needs: string };

export const QUESTIONS: Question[] = [
  {
    question: "Which files import src/compose.ts?",
    kota: [{ tool: "kota_deps", args: { file_path: "src/compose.ts", direction: "dependents" } }],
    reading: [{ grep: "from ['\"](\\.\\.?/)+compose['\"]", in: "src" }],
    needs: "src/hono-base.ts",
  },
  {
    question: "What does src/hono-base.ts depend on?",
    kota: [{ tool: "kota_deps", args: { file_path: "src/hono-base.ts", direction: "dependencies" } }],
    reading: [{ read: "src/hono-base.ts", lines: 40 }],
    needs: "compose",
  },
  {
    question: "Where is getPath (src/utils/url.ts) used?",
    kota: [{ tool: "kota_usages", args: { symbol: "getPath", file: "src/utils/url.ts" } }],
    reading: [{ grep: "getPath\\b", in: "src" }],
    needs: "src/hono-base.ts",
  },
  {
    question: "Where is HTTPException used?",
    kota: [{ tool: "kota_usages", args: { symbol: "HTTPException", file: "src/http-exception.ts" } }],
    reading: [{ grep: "HTTPException", in: "src" }],
    needs: "src/middleware/basic-auth/index.ts",
  },
  {
    question: "What is affected if I change src/utils/url.ts, and which tests should I run?",
    kota: [{ tool: "kota_impact", args: { files_to_modify: ["src/utils/url.ts"] } }],
    reading: [
      { grep: "from ['\"][./]*(utils/)?url['\"]", in: "src", flags: ["-l"] },
      { grep: "from ['\"][./]*(request|hono-base|router|cookie|node|index)['\"]", in: "src", flags: ["-l"] },
    ],
    needs: "src/request.ts",
  },
  {
    question: "Which tests cover src/utils/cookie.ts?",
    kota: [{ tool: "kota_task_context", args: { files: ["src/utils/cookie.ts"], include_symbols: false } }],
    reading: [{ grep: "utils/cookie|from ['\"]\\./cookie['\"]", in: "src", flags: ["-l"] }],
    needs: "src/utils/cookie.test.ts",
  },
  {
    question: "What does the Context class (src/context.ts) offer?",
    kota: [{ tool: "kota_task_context", args: { files: ["src/context.ts"] } }],
    reading: [{ read: "src/context.ts" }],
    needs: "header",
  },
  {
    question: "Where is a CORS preflight (OPTIONS) request handled?",
    kota: [{ tool: "kota_search", args: { query: "'OPTIONS'", output: "snippet", limit: 10 } }],
    reading: [{ grep: "'OPTIONS'", in: "src", flags: ["-C2"] }],
    needs: "src/middleware/cors/index.ts",
  },
  {
    question: "I will modify src/middleware/cors/index.ts: what should I know?",
    kota: [{ tool: "kota_task_context", args: { files: ["src/middleware/cors/index.ts"] } }],
    reading: [{ read: "src/middleware/cors/index.ts" }, { grep: "middleware/cors|from ['\"]\\.['\"]", in: "src", flags: ["-l"] }],
    needs: "src/middleware/cors/index.test.ts",
  },
  {
    question: "Who calls createMiddleware?",
    kota: [{ tool: "kota_usages", args: { symbol: "createMiddleware", file: "src/helper/factory/index.ts" } }],
    reading: [{ grep: "createMiddleware", in: "src" }],
    needs: "src/helper/factory/index.ts",
  },
];

function runStep(root: string, step: Step): { call: string; output: string } {
  if ("read" in step) {
    const text = readFileSync(join(root, step.read), "utf8");
    const output = step.lines ? text.split("\n").slice(0, step.lines).join("\n") : text;
    return { call: JSON.stringify({ tool: "read", path: step.read, ...(step.lines ? { limit: step.lines } : {}) }), output };
  }
  const args = ["grep", "-rnE", ...(step.flags ?? []), "--include=*.ts", "--include=*.tsx", step.grep, step.in];
  const r = Bun.spawnSync(args, { cwd: root, stdout: "pipe" });
  return {
    call: JSON.stringify({ tool: "bash", command: args.map((a) => (/[\s'"|()]/.test(a) ? `'${a}'` : a)).join(" ") }),
    output: r.stdout.toString(),
  };
}

export type TokenRow = {
  question: string;
  kotaTokens: number;
  readingTokens: number;
  kotaCalls: number;
  readingCalls: number;
  kotaAnswers: boolean;
  readingAnswers: boolean;
};

export type TokenReport = {
  corpus: "hono";
  rows: TokenRow[];
  total: { kota: number; reading: number; ratio: number };
  /** What the six kota tool definitions add to every model call (sent each turn). */
  definitionTokensPerTurn: number;
};

export async function runTokens(): Promise<TokenReport> {
  const corpus = unpackCorpus("hono");
  const scratch = createScratch();
  const service = createKotaService({ dbPath: scratch.path("kota-tokens"), config: { kota: defaultConfig().kota } });
  const kota = { kota: service.handle };
  const scope = { project: corpus.root, budgetBytes: defaultConfig().kota.budgetBytes, confirmIndex: false };
  try {
    const rows: TokenRow[] = [];
    for (const q of QUESTIONS) {
      let kotaTokens = 0;
      let kotaText = "";
      for (const call of q.kota) {
        const outcome = await runKotaTool(kota, call.tool, call.args, scope);
        if (outcome.isError) throw new Error(`${call.tool}: ${outcome.text}`);
        kotaTokens += countTokens(JSON.stringify({ tool: call.tool, ...call.args })) + countTokens(outcome.text);
        kotaText += outcome.text;
      }
      let readingTokens = 0;
      let readingText = "";
      for (const step of q.reading) {
        const r = runStep(corpus.root, step);
        readingTokens += countTokens(r.call) + countTokens(r.output);
        readingText += r.output;
      }
      rows.push({
        question: q.question,
        kotaTokens,
        readingTokens,
        kotaCalls: q.kota.length,
        readingCalls: q.reading.length,
        kotaAnswers: kotaText.includes(q.needs),
        readingAnswers: readingText.includes(q.needs),
      });
    }
    const kotaSum = rows.reduce((n, r) => n + r.kotaTokens, 0);
    const readingSum = rows.reduce((n, r) => n + r.readingTokens, 0);
    const defs = kotaMcpTools().map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
    return {
      corpus: "hono",
      rows,
      total: { kota: kotaSum, reading: readingSum, ratio: Math.round((kotaSum / readingSum) * 1000) / 1000 },
      definitionTokensPerTurn: countTokens(JSON.stringify(defs)),
    };
  } finally {
    await service.close();
    scratch.remove();
    corpus.remove();
  }
}

if (import.meta.main) {
  console.log(JSON.stringify(await runTokens(), null, 2));
}
