/**
 * argv -> command. Global flags (--db, --json, --help, --version) go anywhere. Returns the
 * exit code (0 ok, 1 failure, 2 usage error); every error goes to stderr with what to do next.
 */
import { parseArgs } from "node:util";
import { type ConfigLoad, loadConfig } from "../../config.ts";
import { createEngine, type Engine } from "../../engine.ts";
import { AppError, errorMessage } from "../../errors.ts";
import { VERSION } from "../../version.ts";
import { type Command, type CommandContext, type OptionSpec, UsageError } from "./command.ts";
import { captureCommand } from "./commands/capture.ts";
import { doctorCommand } from "./commands/doctor.ts";
import { exportCommand } from "./commands/export.ts";
import { getCommand } from "./commands/get.ts";
import { hookCommand } from "./commands/hook.ts";
import { installCommand, uninstallCommand } from "./commands/install.ts";
import { kotaCommand } from "./commands/kota.ts";
import { listCommand } from "./commands/list.ts";
import { mcpCommand } from "./commands/mcp.ts";
import { memoryCommand } from "./commands/memory.ts";
import { pruneCommand } from "./commands/prune.ts";
import { purgeCommand } from "./commands/purge.ts";
import { searchCommand } from "./commands/search.ts";
import { serveCommand } from "./commands/serve.ts";
import { serversCommand } from "./commands/servers.ts";
import { settleCommand } from "./commands/settle.ts";
import { statsCommand } from "./commands/stats.ts";
import { webCommand } from "./commands/web.ts";

export const COMMANDS: Command[] = [
  captureCommand,
  searchCommand,
  getCommand,
  listCommand,
  statsCommand,
  purgeCommand,
  exportCommand,
  settleCommand,
  pruneCommand,
  kotaCommand,
  memoryCommand,
  webCommand,
  serveCommand,
  mcpCommand,
  serversCommand,
  installCommand,
  uninstallCommand,
  doctorCommand,
  hookCommand,
];

const GLOBAL: Record<string, OptionSpec> = {
  db: {
    type: "string",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell notation, shown to the user as is
    help: "the database file (default ${PI_CODING_AGENT_DIR:-~/.pi/agent}/sidecar.db, or PI_SIDECAR_DB)",
    value: "PATH",
  },
  json: { type: "boolean", help: "machine-readable output" },
  help: { type: "boolean", short: "h", help: "show help" },
  version: { type: "boolean", short: "V", help: "print the version" },
};

function optionLines(options: Record<string, OptionSpec>): string[] {
  return Object.entries(options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : "    "}--${name}${o.value ? ` ${o.value}` : ""}`;
    return `  ${flag.padEnd(26)} ${o.help}`;
  });
}

export function mainHelp(): string {
  return [
    `pi-sidecar ${VERSION}: keeps oversized tool output out of an agent's context, in a local SQLite store`,
    "",
    "Usage: pi-sidecar [--db PATH] [--json] COMMAND [options]",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`),
    "",
    "Global options:",
    ...optionLines(GLOBAL),
    "",
    "Run `pi-sidecar COMMAND --help` for a command's options. Exit codes: 0 ok, 1 failure, 2 usage error.",
    "",
  ].join("\n");
}

function commandHelp(c: Command): string {
  return [`Usage: ${c.usage}`, "", c.summary, "", "Options:", ...optionLines(c.options), ...optionLines(GLOBAL), ""].join("\n");
}

export type Io = {
  out: (text: string) => void;
  outBytes: (bytes: Uint8Array) => void;
  err: (text: string) => void;
  readStdin: () => Promise<Uint8Array>;
  stdinStream: () => AsyncIterable<Uint8Array>;
  stdinIsTTY: boolean;
  env: Record<string, string | undefined>;
  cwd: string;
};

export async function runCli(argv: string[], io: Io): Promise<number> {
  const at = argv.findIndex((a, i) => !a.startsWith("-") && argv[i - 1] !== "--db");
  const name = at === -1 ? undefined : argv[at];
  const command = name === undefined ? undefined : COMMANDS.find((c) => c.name === name);
  if (name !== undefined && name !== "help" && !command) {
    io.err(`pi-sidecar: unknown command "${name}". Commands: ${COMMANDS.map((c) => c.name).join(", ")}. Run \`pi-sidecar --help\`.\n`);
    return 2;
  }
  const options = { ...GLOBAL, ...(command?.options ?? {}) };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv.filter((_, i) => i !== at),
      options: Object.fromEntries(Object.entries(options).map(([k, o]) => [k, { type: o.type, ...(o.short ? { short: o.short } : {}) }])),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    io.err(
      `pi-sidecar: ${errorMessage(error).replace(/^.*?: /, "")}\n${command ? `Usage: ${command.usage}` : "Run `pi-sidecar --help`."}\n`,
    );
    return 2;
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const positionals = parsed.positionals;
  if (values.version) {
    io.out(`pi-sidecar ${VERSION}\n`);
    return 0;
  }
  if (name === "help") {
    const topic = COMMANDS.find((c) => c.name === positionals[0]);
    io.out(topic ? commandHelp(topic) : mainHelp());
    return 0;
  }
  if (!command || values.help) {
    io.out(command ? commandHelp(command) : mainHelp());
    return command || values.help ? 0 : 2;
  }

  const loaded: ConfigLoad = loadConfig({
    env: io.env,
    cwd: io.cwd,
    flags: typeof values.db === "string" ? { db: values.db } : {},
  });
  for (const problem of loaded.errors) io.err(`pi-sidecar: config: ${problem}\n`);
  let engine: Engine | null = null;
  const ctx: CommandContext = {
    values,
    positionals,
    json: values.json === true,
    loaded,
    // A one-shot command finishes indexing and counting inline before it exits; servers use the worker.
    engine: () => (engine ??= createEngine({ config: loaded.config, background: "inline" })),
    createEngine: (options) => (engine ??= createEngine({ config: loaded.config, ...options })),
    out: io.out,
    outBytes: io.outBytes,
    err: io.err,
    readStdin: io.readStdin,
    stdinStream: io.stdinStream,
    stdinIsTTY: io.stdinIsTTY,
    env: io.env,
    cwd: io.cwd,
  };
  try {
    return await command.run(ctx);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`pi-sidecar: ${error.message}\nUsage: ${command.usage}\n`);
      return 2;
    }
    if (error instanceof AppError) {
      io.err(`pi-sidecar: ${error.message}\n`);
      return 1;
    }
    const sqlite = sqliteFailure(error);
    if (sqlite) {
      io.err(`pi-sidecar: ${sqlite}\n`);
      return 1;
    }
    io.err(
      `pi-sidecar: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\nPlease report it with the command you ran.\n`,
    );
    return 1;
  } finally {
    try {
      await (engine as Engine | null)?.close();
    } catch (error) {
      // The command's answer is out; what could not be finished waits for the next run.
      io.err(`pi-sidecar: ${error instanceof AppError ? error.message : (sqliteFailure(error) ?? errorMessage(error))}\n`);
    }
  }
}

/** An SQLite fault that is not ours (I/O error, full disk outside a write transaction) in one line. */
function sqliteFailure(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !code.startsWith("SQLITE_")) return null;
  return `the database failed (${code}: ${errorMessage(error)}). Nothing more was changed; check the disk and the file's permissions, then run the command again.`;
}
