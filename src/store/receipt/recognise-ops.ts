/**
 * Container tools: kubectl (client errors, "get" tables) and docker (daemon errors, build steps).
 * The summary says what failed and where; a pods table is counted by status.
 */
import { type Finding, SCORE } from "./line-score.ts";
import { plural, type Recogniser } from "./recogniser.ts";
import type { Hit, TextView } from "./text-view.ts";

function clip(text: string, max = 160): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function asFindings(hits: Hit[], score: number): Finding[] {
  return hits.map((h) => ({ line: h.line, text: h.text, score }));
}

const KLOG = /^[EWF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [\w.-]+:\d+\] (.*)$/;
const TABLE_HEADER = /^(?:NAMESPACE +)?NAME +READY +STATUS +RESTARTS +AGE\b.*$/m;
const HEALTHY = new Set(["Running", "Completed", "Succeeded"]);

/** Pods by STATUS, read at the STATUS column's offset in each row (kubectl aligns columns). */
function podTable(v: TextView, summary: string[], important: Finding[]): void {
  const header = v.scan("NAME ", new RegExp(TABLE_HEADER.source), 1).hits[0];
  if (!header) return;
  const col = (name: string) => header.text.indexOf(name);
  const [nameAt, statusAt, restartsAt] = [col("NAME"), col("STATUS"), col("RESTARTS")];
  const statuses = new Map<string, number>();
  const bad: Finding[] = [];
  for (const row of v.after(header, 5000)) {
    if (row.text.trim() === "" || row.text.length <= statusAt) continue;
    const status = row.text.slice(statusAt).split(/\s+/)[0]!;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const ready = /^(\d+)\/(\d+)$/.exec(row.text.slice(col("READY")).split(/\s+/)[0]!);
    if (!HEALTHY.has(status) || (status === "Running" && ready && ready[1] !== ready[2])) {
      const name = row.text.slice(nameAt).split(/\s+/)[0]!;
      const restarts = row.text
        .slice(restartsAt)
        .split(/\s{2,}/)[0]!
        .trim();
      bad.push({ line: row.line, text: row.text, score: SCORE.failure });
      if (bad.length <= 6) summary.push(`not ready: ${name} (${status}, ${restarts} restarts)`);
    }
  }
  const total = [...statuses.values()].reduce((a, b) => a + b, 0);
  const parts = [...statuses].sort((a, b) => b[1] - a[1]).map(([s, n]) => `${n} ${s}`);
  summary.unshift(`${plural(total, "pod")}: ${parts.join(", ")}`);
  important.push(...bad);
}

export const kubectl: Recogniser = {
  kind: "kubectl",
  detect: (v) =>
    new RegExp(KLOG.source, "m").test(v.headText) ||
    /^(?:The connection to the server .* was refused|Error from server \(\w+\)|error: the server doesn't have a resource type)/m.test(
      v.tailText,
    ) ||
    TABLE_HEADER.test(v.headText),
  analyze(v) {
    const summary: string[] = [];
    const important: Finding[] = [];
    const errors = [
      ...v.scan("The connection to the server ", /^The connection to the server /, 4).hits,
      ...v.scan("Error from server ", /^Error from server /, 4).hits,
      ...v.scan("error: ", /^error: /, 4).hits,
      ...v.scan("Unable to connect to the server: ", /^Unable to connect to the server: /, 4).hits,
    ].sort((a, b) => a.line - b.line);
    summary.push(...errors.slice(0, 3).map((e) => clip(e.text)));
    important.push(...asFindings(errors, SCORE.failure));
    const klog = v.scan("] ", KLOG, 3);
    if (klog.total > 0) {
      summary.push(`${plural(klog.total, "client log error")} (E/W lines), first: ${clip(klog.hits[0]!.m[1]!, 120)}`);
      important.push(...asFindings(klog.hits.slice(0, 1), SCORE.errorLine));
    }
    podTable(v, summary, important);
    const events = v.scan("Warning ", /^ +Warning +\w+ /, 10).hits;
    important.push(...asFindings(events, SCORE.errorLine));
    return { summary, important };
  },
};

const DOCKER_HINT =
  /Cannot connect to the Docker daemon|^Step \d+\/\d+ : |^#\d+ \[|^ERROR: failed to solve|^docker: Error response from daemon|^Error response from daemon: |^Unable to find image|^DEPRECATED: The legacy builder/m;

export const docker: Recogniser = {
  kind: "docker",
  detect: (v) => DOCKER_HINT.test(v.headText) || DOCKER_HINT.test(v.tailText),
  analyze(v) {
    const summary: string[] = [];
    const important: Finding[] = [];
    const errors = [
      ...v.scan("ERROR: ", /^(?:#\d+ )?ERROR: /, 10).hits,
      ...v.scan("docker: ", /^docker: /, 4).hits,
      ...v.scan("Error response from daemon: ", /^Error response from daemon: /, 4).hits,
      ...v.scan("Cannot connect to the Docker daemon", /^Cannot connect to the Docker daemon/, 4).hits,
      ...v.scan("returned a non-zero code: ", /^The command '.*' returned a non-zero code: \d+/, 4).hits,
    ].sort((a, b) => a.line - b.line);
    // BuildKit: "#8 ERROR: ..." belongs to the step announced as "#8 [4/5] RUN ...".
    const failedStep = errors.map((e) => /^#(\d+) ERROR: /.exec(e.text)?.[1]).find(Boolean);
    if (failedStep) {
      const step = v.scan(`#${failedStep} [`, new RegExp(`^#${failedStep} \\[`), 1).hits[0];
      if (step) summary.push(`failed step: ${clip(step.text.replace(/^#\d+ /, ""), 120)}`);
    } else {
      // The legacy builder: the last "Step n/m" before "returned a non-zero code".
      const steps = v.scan("Step ", /^Step \d+\/\d+ : /, 1000).hits;
      if (steps.length > 0 && errors.some((e) => /returned a non-zero code/.test(e.text)))
        summary.push(`failed step: ${clip(steps.at(-1)!.text, 120)}`);
    }
    const seen = new Set<string>();
    for (const e of errors) {
      if (seen.has(e.text) || summary.length >= 4) continue;
      seen.add(e.text);
      summary.push(clip(e.text));
    }
    important.push(...asFindings(errors, SCORE.failure));
    important.push(...asFindings(v.scan(" level=", /^time="[^"]*" level=(?:error|fatal) /, 10).hits, SCORE.errorLine));
    return { summary, important };
  },
};
