// A process that captures one large text, prints its source id as soon as the receipt is back,
// then waits to be killed (used by deferred-index.test.ts).
import { defaultConfig } from "../../src/config.ts";
import { createEngine } from "../../src/engine.ts";

const [path, file] = process.argv.slice(2) as [string, string];
const config = defaultConfig();
config.db = path;
const engine = createEngine({ config });
const r = await engine.capture({ file, tool: "bash", force: true });
if (!r.stored) throw new Error("expected a capture");
process.stdout.write(`${r.sourceId}\n`);
await Bun.sleep(60_000);
