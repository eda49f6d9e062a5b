/**
 * The four agent scenarios, shared by the end-to-end tests and the benchmark. Each writes its
 * fixture into the run's directory and gives two scripted agents: one for pi with the sidecar
 * (reads the receipt, retrieves) and one for plain pi (reads what pi shows, greps when it must).
 * Fixtures are random per run; the answer is checked against the fixture, never hard-coded.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { rng } from "../../helpers.ts";

export type Scenario = {
  name: string;
  prompt(expected: Record<string, unknown>): string;
  /** Writes the fixture into `dir`; returns the expected answer. */
  setup(dir: string, seed: number): Record<string, unknown>;
  sidecarScript: string;
  controlScript: string;
};

const hex = (r: () => number, n: number) => Array.from({ length: n }, () => Math.floor(r() * 16).toString(16)).join("");

/** Access-log noise (~100 bytes a line): timestamps, request ids, paths, timings. */
export function accessLog(lines: number, seed: number, plant: Map<number, string>): string {
  const r = rng(seed);
  const out: string[] = [];
  for (let i = 1; i <= lines; i++) {
    out.push(
      plant.get(i) ??
        `2026-11-22T08:${String(i % 60).padStart(2, "0")}:${String((i * 7) % 60).padStart(2, "0")}.${String(i % 1000).padStart(3, "0")}Z INFO [worker-${i % 8}] req=${hex(r, 8)} GET /api/v1/items/${Math.floor(r() * 90000)} 200 ${Math.floor(r() * 90) + 3}ms cache=${r() < 0.6 ? "hit" : "miss"}`,
    );
  }
  return `${out.join("\n")}\n`;
}

// Shared by every script: the last tool result, and a JSON answer.
const PRELUDE = `
const last = (ctx) => ctx.lastToolResults.at(-1);
const source = (t) => /Source (ctx_\\w+)/.exec(t)?.[1];
const answer = (o) => JSON.stringify(o);
// 1 after the first command's result, 2 after a follow-up grep.
const turn = (ctx) => ctx.assistantTurnsInContext;
`;

export const noisyLog: Scenario = {
  name: "noisy log (1,400 lines)",
  prompt: () => "Run `cat service.log` and tell me the line number and value of TARGET_VALUE as JSON.",
  setup(dir, seed) {
    const uuid = crypto.randomUUID();
    const line = 1200 + Math.floor(rng(seed)() * 180);
    writeFileSync(
      join(dir, "service.log"),
      accessLog(1400, seed, new Map([[line, `2026-11-22T08:59:59.000Z INFO [worker-3] deploy check TARGET_VALUE=${uuid} ok`]])),
    );
    return { line, uuid };
  },
  sidecarScript: `${PRELUDE}
export default function (ctx) {
  const r = last(ctx);
  if (!r) return { toolCalls: [{ name: "bash", arguments: { command: "cat service.log" } }] };
  if (r.toolName === "bash") return { toolCalls: [{ name: "context_search", arguments: { query: "TARGET_VALUE", source: source(r.text) } }] };
  const m = /^\\s*(\\d+): .*TARGET_VALUE=([0-9a-f-]{36})/m.exec(r.text);
  return m ? answer({ line: Number(m[1]), uuid: m[2] }) : "not found";
}`,
  controlScript: `${PRELUDE}
export default function (ctx) {
  const r = last(ctx);
  if (!r) return { toolCalls: [{ name: "bash", arguments: { command: "cat service.log" } }] };
  if (turn(ctx) === 1) {
    const lines = r.text.split("\\n");
    const shown = /\\[Showing lines (\\d+)-/.exec(r.text);
    const first = shown ? Number(shown[1]) : 1;
    const i = lines.findIndex((l) => l.includes("TARGET_VALUE="));
    if (i >= 0) return answer({ line: first + i, uuid: /TARGET_VALUE=([0-9a-f-]{36})/.exec(lines[i])[1] });
    return { toolCalls: [{ name: "bash", arguments: { command: "grep -n TARGET_VALUE service.log" } }] };
  }
  const m = /^(\\d+):.*TARGET_VALUE=([0-9a-f-]{36})/m.exec(r.text);
  return m ? answer({ line: Number(m[1]), uuid: m[2] }) : "not found";
}`,
};

export const jsonBlob: Scenario = {
  name: "large JSON result",
  prompt: (e) => `Run \`cat orders.json\` and tell me the status and total of the order with id ${e.id} as JSON.`,
  setup(dir, seed) {
    const r = rng(seed);
    const orders = Array.from({ length: 900 }, (_, i) => ({
      id: `ord_${hex(r, 10)}`,
      customer: { name: `Customer ${i}`, email: `c${i}@example.com`, tier: ["gold", "silver", "bronze"][i % 3] },
      status: ["shipped", "pending", "cancelled", "delivered"][Math.floor(r() * 4)],
      total: Math.round(r() * 100000) / 100,
      items: Array.from({ length: 2 }, () => ({ sku: `SKU-${hex(r, 6)}`, qty: 1 + Math.floor(r() * 4) })),
    }));
    const pick = orders[600 + Math.floor(r() * 250)]!;
    writeFileSync(join(dir, "orders.json"), JSON.stringify({ page: 1, orders }, null, 2));
    return { id: pick.id, status: pick.status, total: pick.total };
  },
  sidecarScript: `${PRELUDE}
const target = (ctx) => /id (ord_\\w+)/.exec(ctx.lastUserText)[1];
export default function (ctx) {
  const r = last(ctx);
  if (!r) return { toolCalls: [{ name: "bash", arguments: { command: "cat orders.json" } }] };
  if (r.toolName === "bash") return { toolCalls: [{ name: "context_search", arguments: { query: target(ctx), source: source(r.text) } }] };
  const status = /"status": "(\\w+)"/.exec(r.text);
  const total = /"total": ([\\d.]+)/.exec(r.text);
  if (status && total) return answer({ id: target(ctx), status: status[1], total: Number(total[1]) });
  if (r.toolName === "context_search") {
    const m = /^\\s*(\\d+): .*"id": "(ord_\\w+)"/m.exec(r.text);
    const src = /(ctx_\\w+)/.exec(r.text)[1];
    return { toolCalls: [{ name: "context_get", arguments: { source: src, lines: m[1] + "-" + (Number(m[1]) + 14) } }] };
  }
  return "not found";
}`,
  controlScript: `${PRELUDE}
const target = (ctx) => /id (ord_\\w+)/.exec(ctx.lastUserText)[1];
export default function (ctx) {
  const r = last(ctx);
  if (!r) return { toolCalls: [{ name: "bash", arguments: { command: "cat orders.json" } }] };
  const i = r.text.indexOf(target(ctx));
  if (i >= 0) {
    const after = r.text.slice(i);
    return answer({ id: target(ctx), status: /"status": "(\\w+)"/.exec(after)[1], total: Number(/"total": ([\\d.]+)/.exec(after)[1]) });
  }
  if (turn(ctx) > 1) return "not found";
  return { toolCalls: [{ name: "bash", arguments: { command: "grep -n -A 14 '" + target(ctx) + "' orders.json" } }] };
}`,
};

export const buildLog: Scenario = {
  name: "failing build log",
  prompt: () => "Run `cat build.log` (the CI build) and tell me which file and line failed to compile, as JSON.",
  setup(dir, seed) {
    const r = rng(seed);
    const at = 1400 + Math.floor(r() * 400);
    const file = `src/billing/invoice-${hex(r, 4)}.ts`;
    const line = 10 + Math.floor(r() * 300);
    const out: string[] = [];
    for (let i = 1; i <= 3200; i++) {
      if (i === at)
        out.push(`${file}(${line},14): error TS2345: Argument of type 'string' is not assignable to parameter of type 'Money'.`);
      else
        out.push(
          `[${String(i).padStart(4, "0")}] compiled src/module-${Math.floor(r() * 400)}/part-${hex(r, 4)}.ts in ${Math.floor(r() * 400)} ms (cache ${r() < 0.5 ? "hit" : "miss"})`,
        );
    }
    out.push("Build failed with 1 error.");
    writeFileSync(join(dir, "build.log"), `${out.join("\n")}\n`);
    return { file, line };
  },
  sidecarScript: `${PRELUDE}
export default function (ctx) {
  const r = last(ctx);
  if (!r) return { toolCalls: [{ name: "bash", arguments: { command: "cat build.log" } }] };
  const m = /(src\\/[\\w\\/.-]+\\.ts)\\((\\d+),\\d+\\): error/.exec(r.text);
  if (m) return answer({ file: m[1], line: Number(m[2]) });
  if (r.toolName === "bash") return { toolCalls: [{ name: "context_search", arguments: { query: "error TS", source: source(r.text) } }] };
  return "not found";
}`,
  controlScript: `${PRELUDE}
export default function (ctx) {
  const r = last(ctx);
  if (!r) return { toolCalls: [{ name: "bash", arguments: { command: "cat build.log" } }] };
  const m = /(src\\/[\\w\\/.-]+\\.ts)\\((\\d+),\\d+\\): error/.exec(r.text);
  if (m) return answer({ file: m[1], line: Number(m[2]) });
  if (turn(ctx) > 1) return "not found";
  return { toolCalls: [{ name: "bash", arguments: { command: "grep -n 'error TS' build.log" } }] };
}`,
};

export const browserSnapshot: Scenario = {
  name: "browser snapshot",
  prompt: () => "Run `cat snapshot.yml` (the page's accessibility snapshot) and tell me the ref of the 'Place order' button as JSON.",
  setup(dir, seed) {
    const r = rng(seed);
    const out: string[] = ["- document [ref=e1]:"];
    let ref = 2;
    const where = 700 + Math.floor(r() * 500);
    let answerRef = "";
    for (let i = 0; i < 1600; i++) {
      const depth = 1 + Math.floor(r() * 5);
      const pad = "  ".repeat(depth);
      if (i === where) {
        answerRef = `e${ref}`;
        out.push(`${pad}- button "Place order" [ref=e${ref++}] [cursor=pointer]`);
        continue;
      }
      const kind = ["link", "generic", "listitem", "img", "button", "text"][Math.floor(r() * 6)];
      const label =
        kind === "button" ? ["Add to cart", "Remove", "Save for later", "Apply coupon"][Math.floor(r() * 4)] : `Item ${hex(r, 5)} details`;
      out.push(`${pad}- ${kind} "${label}" [ref=e${ref++}]${kind === "link" ? ` /url: /p/${hex(r, 6)}` : ""}`);
    }
    writeFileSync(join(dir, "snapshot.yml"), `${out.join("\n")}\n`);
    return { ref: answerRef };
  },
  sidecarScript: `${PRELUDE}
export default function (ctx) {
  const r = last(ctx);
  if (!r) return { toolCalls: [{ name: "bash", arguments: { command: "cat snapshot.yml" } }] };
  const m = /button "Place order" \\[ref=(e\\d+)\\]/.exec(r.text);
  if (m) return answer({ ref: m[1] });
  if (r.toolName === "bash") return { toolCalls: [{ name: "context_search", arguments: { query: "button \\"Place order\\"", source: source(r.text) } }] };
  return "not found";
}`,
  controlScript: `${PRELUDE}
export default function (ctx) {
  const r = last(ctx);
  if (!r) return { toolCalls: [{ name: "bash", arguments: { command: "cat snapshot.yml" } }] };
  const m = /button "Place order" \\[ref=(e\\d+)\\]/.exec(r.text);
  if (m) return answer({ ref: m[1] });
  if (turn(ctx) > 1) return "not found";
  return { toolCalls: [{ name: "bash", arguments: { command: "grep -n 'Place order' snapshot.yml" } }] };
}`,
};

export const SCENARIOS: Scenario[] = [noisyLog, jsonBlob, buildLog, browserSnapshot];
