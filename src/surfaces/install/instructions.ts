/**
 * The few lines that tell a model when to use pi-sidecar's tools, for hosts where nothing
 * rewrites its own shell calls (and as a reminder where something does). Short: it is read on
 * every turn.
 */
export const INSTRUCTIONS = `## Large output: pi-sidecar
- Run builds, tests, log dumps and other noisy commands with the \`context_run\` tool (MCP server \`pi-sidecar\`): small output comes back whole, large output is stored and you get a receipt.
- Then find what you need with \`context_search\` (distinctive words, identifiers, error text) and read exact lines with \`context_get\`; do not run the command again to see more.
- Fetch web pages with \`context_fetch\`; store a big file with \`context_index\` instead of reading it whole.`;
