import { formatCount } from "../../../units.ts";
import { type Command, printJson } from "../command.ts";

export const settleCommand: Command = {
  name: "settle",
  summary: "finish queued indexing and token counting now (capture hands this to a background process)",
  usage: "pi-sidecar settle [--quiet]",
  options: { quiet: { type: "boolean", help: "print nothing (used by capture's background process)" } },
  async run(ctx) {
    const done = await ctx.createEngine({ background: "inline", indexHelper: true }).settle();
    if (ctx.values.quiet === true) return 0;
    if (ctx.json) printJson(ctx, done);
    else
      ctx.out(
        `Indexed ${formatCount(done.blobs)} texts; counted tokens of ${formatCount(done.counted)} texts, ` +
          `${formatCount(done.receipts)} receipts and ${formatCount(done.retrievals)} retrieval parts.\n`,
      );
    return 0;
  },
};
