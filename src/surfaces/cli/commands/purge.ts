import { formatBytes, parseDuration } from "../../../units.ts";
import { type Command, pathOption, printJson, str, UsageError } from "../command.ts";

export const purgeCommand: Command = {
  name: "purge",
  summary: "delete stored sources (by id, age, session, project, or all)",
  usage: "pi-sidecar purge (--source ID | --older-than 7d | --session ID | --project DIR | --all)",
  options: {
    source: { type: "string", help: "this source", value: "ID" },
    "older-than": { type: "string", help: "sources older than this (30m, 12h, 7d, 2w)", value: "AGE" },
    session: { type: "string", help: "this session's sources", value: "ID" },
    project: { type: "string", help: "this project's sources", value: "DIR" },
    all: { type: "boolean", help: "everything" },
  },
  async run(ctx) {
    const olderThan = str(ctx.values["older-than"]);
    const olderThanMs = olderThan === undefined ? undefined : parseDuration(olderThan);
    if (olderThanMs === null) throw new UsageError(`--older-than takes an age like 30m, 12h, 7d or 2w, got ${JSON.stringify(olderThan)}`);
    const filter = {
      source: str(ctx.values.source),
      olderThanMs,
      session: str(ctx.values.session),
      project: pathOption(ctx.values.project),
      all: ctx.values.all === true,
    };
    const narrowing = [filter.source, filter.olderThanMs, filter.session, filter.project].some((v) => v !== undefined);
    if (!filter.all && !narrowing)
      throw new UsageError("purge needs one of --source ID, --older-than AGE, --session ID, --project DIR or --all");
    if (filter.all && narrowing) throw new UsageError("--all deletes everything; use it alone");
    if (ctx.positionals.length > 0)
      throw new UsageError(
        `purge takes no arguments (got ${JSON.stringify(ctx.positionals[0])}); did you mean --source ${ctx.positionals[0]}?`,
      );
    const result = await ctx.engine().purge(filter);
    if (ctx.json) printJson(ctx, result);
    else
      ctx.out(
        `Purged ${result.sources} source${result.sources === 1 ? "" : "s"} (${result.blobs} stored text${result.blobs === 1 ? "" : "s"}, ${formatBytes(result.bytes)}).${result.note}\n`,
      );
    return 0;
  },
};
