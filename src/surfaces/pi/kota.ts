/**
 * Code intelligence inside pi: the kota_* tools, `/kota status|index|restart|pin|blobs`, a status
 * line (`kota: stopped|starting|running | repo | indexed`), progress while indexing, and the
 * optional briefing on files a prompt names (kota.autoContext). Nothing loads at pi's start: the
 * engine (and with it the code index) starts on the first kota call. The tools are registered only
 * when pi starts in a TS/JS project (code-repo.ts), so other sessions carry no kota tool definitions.
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { Config } from "../../config.ts";
import type { Engine } from "../../engine.ts";
import { errorMessage } from "../../errors.ts";
import type { KotaAnswer, KotaLike } from "../../kota/index.ts";
import {
  findRepoRoot,
  fitToBudget,
  isCodeRepo,
  KOTA_ERRORS,
  promptPaths,
  renderIndex,
  renderStatus,
  renderTaskContext,
  TASK_LEVELS,
} from "../../kota/index.ts";
import { plural } from "../../units.ts";
import { KOTA_TOOLS, type KotaToolScope, MEANINGFUL_KOTA_TOOLS, runKotaTool } from "../tools/kota-tools.ts";
import type { PiHost } from "./host.ts";
import { lastMeaningful, type PruneHandle, pinsOf } from "./prune.ts";
import { statusLine } from "./status.ts";
import { typeboxParams } from "./tool-schema.ts";

/** What the extension hands over: the engine (its `kota`, and `capture` for answers over the budget). */
export type KotaHandle = KotaLike & Partial<Pick<Engine, "capture">>;

/** Answers over the budget that went to the context store this session (`/kota blobs`). */
export const kotaStored: { tool: string; bytes: number; receipt: string }[] = [];

const isMeaningful = (name: string) => MEANINGFUL_KOTA_TOOLS.has(name);

const BRIEFING_BYTES = 1024;
const MAX_BRIEFING_FILES = 5;

type Line = { state: "stopped" | "starting" | "running"; repo: string; indexed: string };

export function registerKota(
  pi: ExtensionAPI,
  host: PiHost,
  kota: () => Promise<KotaHandle | null>,
  config: Readonly<Pick<Config, "kota">>,
  say: (ctx: ExtensionContext, text: string) => void,
  log: (line: string) => void,
  /** `/kota pin` pins through pruning's own pins (session entries), like `/pin`. */
  pruning?: PruneHandle,
  /** Where pi started: the tools are registered only in a TS/JS project. */
  cwd = process.cwd(),
): void {
  const repo = isCodeRepo(cwd);
  log(`kota: ${repo.code ? "tools on" : "tools off"} (${repo.why})`);
  const line: Line = { state: "stopped", repo: "", indexed: "not indexed" };
  const show = (ctx: ExtensionContext, progress?: string) => {
    if (!line.repo) line.repo = repoName(ctx.cwd);
    statusLine(pi).set(ctx, "kota", `kota: ${line.state} | ${line.repo} | ${progress ?? line.indexed}`);
  };
  const learn = (r: Awaited<ReturnType<KotaLike["kota"]>>) => {
    if (r.ok) {
      line.state = "running";
      line.repo = repoName(r.repository);
      if (r.op === "index") line.indexed = `indexed, ${plural(r.result.files, "file")}`;
      else if (r.op === "status" || r.op === "restart")
        line.indexed = r.result.indexed ? `indexed, ${plural(r.result.files, "file")}` : "not indexed";
      else if (!line.indexed.startsWith("indexed")) line.indexed = "indexed";
    } else if (r.code === KOTA_ERRORS.REPO_NOT_INDEXED) {
      line.state = "running";
      line.indexed = "not indexed";
    } else if (r.code === KOTA_ERRORS.BACKEND_UNAVAILABLE) line.state = "stopped";
  };
  /** The engine's kota, with every answer also updating the status line. */
  const connect = async (ctx: ExtensionContext): Promise<KotaHandle | null> => {
    const k = await kota();
    if (!k) return null;
    return {
      capture: k.capture?.bind(k),
      kota: async (request, options) => {
        if (line.state === "stopped") {
          line.state = "starting";
          show(ctx);
        }
        const r = await k.kota(request, options);
        learn(r);
        show(ctx);
        return r;
      },
    };
  };
  const scopeOf = (ctx: ExtensionContext, k: KotaHandle, onUpdate?: (text: string) => void, signal?: AbortSignal): KotaToolScope => ({
    project: ctx.cwd,
    session: ctx.sessionManager.getSessionId(),
    budgetBytes: config.kota.budgetBytes,
    confirmIndex: config.kota.confirmIndex,
    confirm: ctx.hasUI ? (title, message) => ctx.ui.confirm(title, message) : undefined,
    consentHint: "run /kota index",
    signal,
    onProgress: (text) => {
      show(ctx, text.replace(/^kota: /, ""));
      onUpdate?.(text);
    },
    store: k.capture
      ? async (text, label) => {
          const r = await k.capture!({
            text,
            tool: label.split(" ")[0]!,
            force: true,
            session: ctx.sessionManager.getSessionId(),
            project: ctx.cwd,
            label,
          });
          if (!r.stored) throw new Error(r.reason);
          kotaStored.push({ tool: label.split(" ")[0]!, bytes: r.bytes, receipt: r.receipt });
          return r.receipt;
        }
      : undefined,
  });

  for (const spec of repo.code ? KOTA_TOOLS : []) {
    pi.registerTool({
      name: spec.name,
      label: spec.label,
      description: spec.description,
      parameters: typeboxParams(host, spec),
      async execute(id, params, signal, onUpdate, ctx) {
        const k = await connect(ctx);
        if (!k) throw new Error("pi-sidecar's code intelligence is unavailable (the engine did not start; PI_SIDECAR_DEBUG=1 shows why).");
        const update = (text: string) => onUpdate?.({ content: [{ type: "text", text }], details: {} });
        const outcome = await runKotaTool(k, spec.name, params as Record<string, unknown>, scopeOf(ctx, k, update, signal));
        if (outcome.isError) throw new Error(outcome.text);
        return { content: [{ type: "text", text: outcome.text }], details: { kota: { ...outcome.details, resultId: id } } };
      },
    });
  }

  const subcommands: Record<string, (ctx: ExtensionContext, k: KotaHandle) => Promise<string>> = {
    status: async (ctx, k) => {
      const r = await k.kota({ op: "status", repo: ctx.cwd });
      const extra = `auto context: ${config.kota.autoContext}; answers within ${config.kota.budgetBytes} bytes; pinned: ${kotaPinCount(ctx)}`;
      return r.ok && (r.op === "status" || r.op === "restart") ? `${renderStatus(r.result)}\n${extra}` : failed(r);
    },
    index: async (ctx, k) => {
      const r = await k.kota(
        { op: "index", repo: ctx.cwd },
        { onProgress: (done, total) => total > 0 && show(ctx, `indexing ${done}/${total} files`) },
      );
      return r.ok && r.op === "index" ? renderIndex(r.result) : failed(r);
    },
    restart: async (ctx, k) => {
      const r = await k.kota({ op: "restart", repo: ctx.cwd });
      return r.ok && r.op === "restart" ? `Restarted.\n${renderStatus(r.result)}` : failed(r);
    },
    pin: async (ctx) => {
      if (!pruning) return "Pinning needs context pruning, which is not loaded in this session.";
      if (!lastMeaningful(ctx.sessionManager.getBranch(), isMeaningful))
        return "No kota result to pin yet: pinning keeps the last kota_search/deps/usages/impact/task_context answer when context is pruned.";
      return pruning.pin(ctx, isMeaningful);
    },
    blobs: async () => {
      if (kotaStored.length === 0) return "No kota answer was too big for the budget this session.";
      return kotaStored.map((s) => `${s.tool} (${s.bytes} bytes): ${s.receipt.split("\n")[0]}`).join("\n");
    },
  };

  pi.registerCommand("kota", {
    description: "pi-sidecar code intelligence: status, index, restart, pin (keep the last kota answer), blobs (answers stored)",
    handler: async (args, ctx) => {
      const sub = (args ?? "").trim().split(/\s+/)[0] || "status";
      const run = subcommands[sub];
      if (!run) return say(ctx, `Unknown /kota ${sub}. Use: /kota ${Object.keys(subcommands).join("|")}`);
      if (!repo.code)
        return say(
          ctx,
          `The kota_* tools are off in this session: pi started outside a TS/JS project (${repo.why}). Start pi in a folder with a package.json, tsconfig.json or TS/JS files; \`pi-sidecar kota\` works in any repository.`,
        );
      try {
        const k =
          sub === "pin" || sub === "blobs"
            ? ({ kota: async () => ({ ok: false, code: "", message: "" }) } as KotaHandle)
            : await connect(ctx);
        if (!k) return say(ctx, "pi-sidecar's code intelligence is unavailable (the engine did not start; PI_SIDECAR_DEBUG=1 shows why).");
        say(ctx, forPiUser(await run(ctx, k)));
      } catch (error) {
        say(ctx, forPiUser(`kota ${sub} failed: ${errorMessage(error)}`));
      }
    },
  });

  if (!repo.code) return;
  pi.on("session_start", async (_event, ctx) => {
    show(ctx);
  });

  if (config.kota.autoContext === "off") return;
  pi.on("before_agent_start", async (event, ctx) => {
    const paths = promptPaths(event.prompt ?? "", ctx.cwd);
    const wanted = config.kota.autoContext === "always" ? paths.length >= 1 : paths.length >= 1 && paths.length <= 3;
    if (!wanted) return undefined;
    try {
      const k = await connect(ctx);
      if (!k) return undefined;
      // Never indexes: a briefing only comes from an index that already exists.
      const r = await k.kota({ op: "taskContext", repo: ctx.cwd, files: paths.slice(0, MAX_BRIEFING_FILES), maxDependents: 5 });
      if (!r.ok || r.op !== "taskContext") return undefined;
      const text = briefing(r, Math.min(BRIEFING_BYTES, config.kota.budgetBytes));
      return { message: { customType: "pi-sidecar-kota-context", content: text, display: true, details: { files: paths } } };
    } catch (error) {
      log(`kota: auto context: ${errorMessage(error)}`);
      return undefined;
    }
  });
}

function briefing(r: KotaAnswer & { op: "taskContext" }, budget: number): string {
  const fit = fitToBudget((level) => renderTaskContext(r.result, level), TASK_LEVELS, budget - 60, "kota_task_context has more.");
  return `[pi-sidecar: code context for the files named]\n${fit.over ? fit.text.slice(0, budget - 60) : fit.text}`;
}

/** Pins (session entries) that point at kota results on this branch. */
function kotaPinCount(ctx: ExtensionContext): number {
  const branch = ctx.sessionManager.getBranch() as { type?: string; message?: { role?: string; toolName?: string; toolCallId?: string } }[];
  const kota = new Set(
    branch.flatMap((e) =>
      e.type === "message" && e.message?.role === "toolResult" && isMeaningful(String(e.message.toolName))
        ? [String(e.message.toolCallId)]
        : [],
    ),
  );
  return pinsOf(branch).filter((id) => kota.has(id)).length;
}

/**
 * Code intelligence names its commands plainly ("run kota index"); in pi the user types them as
 * slash commands. (A shell command, `pi-sidecar kota index`, is left as it is.)
 */
export function forPiUser(text: string): string {
  return text.replace(/(?<![/\w-]|pi-sidecar )\bkota (index|status|restart)\b/g, "/kota $1");
}

function repoName(path: string): string {
  const r = findRepoRoot(path);
  const root = r.ok ? r.root : path;
  return root.split("/").filter(Boolean).at(-1) ?? root;
}

function failed(r: { ok: boolean; message?: string }): string {
  return r.ok ? "unexpected answer" : (r.message ?? "failed");
}
