// A host that purges one source and is then killed (the parent sends SIGKILL once it printed
// "purged"), most likely while its worker is rewriting the file: pi closed mid-rewrite.
import { createEngine } from "../../src/engine.ts";
import { TOOL_CALLS } from "../../src/store/index.ts";
import { testConfig } from "../helpers.ts";

const [path, source] = process.argv.slice(2) as [string, string];
const engine = createEngine({ config: testConfig(path), calls: TOOL_CALLS, busyTimeoutMs: 250 });
const r = await engine.purge({ source });
process.stdout.write(`purged ${r.sources} ${r.rewrite}\n`);
await Bun.sleep(60_000);
