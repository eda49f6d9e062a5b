import { type Command, printJson, requireDatabase, str, UsageError } from "../command.ts";

export const exportCommand: Command = {
  name: "export",
  summary: "write a source's whole stored (redacted) text to a file",
  usage: "pi-sidecar export SOURCE_ID --out FILE [--force]",
  options: {
    out: { type: "string", help: "the file to write (created with mode 0600)", value: "FILE" },
    force: { type: "boolean", help: "overwrite FILE if it exists" },
  },
  async run(ctx) {
    const [source, ...extra] = ctx.positionals;
    const out = str(ctx.values.out);
    if (!source) throw new UsageError("export needs a SOURCE_ID");
    if (extra.length > 0) throw new UsageError(`export takes one SOURCE_ID, got also ${JSON.stringify(extra[0])}`);
    if (!out) throw new UsageError("export needs --out FILE");
    requireDatabase(ctx);
    const result = await ctx.engine().exportSource(source, out, ctx.values.force === true);
    if (!result.ok) {
      ctx.err(`pi-sidecar: ${result.message}\n`);
      return 1;
    }
    if (ctx.json) printJson(ctx, { sourceId: source, path: result.path, bytes: result.bytes });
    else ctx.out(`Wrote ${result.bytes} bytes of ${source} to ${result.path}\n`);
    return 0;
  },
};
