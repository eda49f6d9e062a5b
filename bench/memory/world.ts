/**
 * The fictional project the memory benchmark's history happens in: components, environments,
 * people, tools, and the kinds of facts and preferences a team states about them, each with the
 * sentences that state it, correct it, and ask about it later. Several phrasings per act, so the
 * benchmark measures the classifier on wording it was not written against, not one template.
 */
import type { Rng } from "../prng.ts";

export const COMPONENTS = [
  "billing service",
  "auth gateway",
  "search indexer",
  "notification worker",
  "admin dashboard",
  "payments API",
  "image resizer",
  "report scheduler",
  "profile service",
  "audit logger",
  "feature flag service",
  "checkout frontend",
  "inventory sync",
  "email renderer",
  "session store",
  "rate limiter",
];
export const ENVS = ["staging", "production", "dev"];
export const PEOPLE = ["Priya", "Marcus", "Lena", "Tomasz", "Aiko", "Diego", "Fatima", "Jonas", "Wei", "Olga"];
const DATABASES = ["postgres", "mysql", "mongodb", "redis", "dynamodb", "cassandra", "cockroachdb", "clickhouse"];
const DEPLOYERS = ["helm", "terraform", "ansible", "kamal", "argocd", "pulumi", "nomad", "flyctl"];
const TOPICS = ["orders-v2", "invoices", "user-events", "audit-trail", "emails-out", "stock-changes", "billing-runs", "signups"];
const NODE_VERSIONS = ["18.19", "20.11", "22.3", "20.18", "22.12", "18.20"];
const PACKAGE_MANAGERS = ["npm", "pnpm", "yarn", "bun"];
const RUNNER_FLAGS = ["--runInBand", "--maxWorkers=2", "--shard=1/4", "--bail", "--coverage", "--silent"];
const SUITES = ["integration", "e2e", "unit", "contract", "smoke"];
const EXPORT_STYLES = ["named exports", "default exports"];
const COMMIT_STYLES = ["conventional commits", "imperative one-line subjects", "gitmoji prefixes", "ticket ids first"];
const BRANCHES = ["main", "develop", "release", "trunk"];

export type Fact = {
  /** What the fact is about, e.g. "port:staging:billing service" (one value at a time). */
  key: string;
  kind: "fact" | "preference";
  values: string[];
  /** The statement of a value. */
  state(value: string, rng: Rng): string;
  /** A correction from `old` to `value`, by template index (reported per template). */
  correct(value: string, old: string, rng: Rng): { text: string; template: string };
  /** A question asked later; it does not repeat the value. */
  ask(rng: Rng): string;
};

const pickOther = (rng: Rng, xs: readonly string[], not: string) => rng.pick(xs.filter((x) => x !== not));

/** Three values, each different from the one before (a correction always changes something). */
function chain(rng: Rng, pool: readonly string[]): string[] {
  const a = rng.pick(pool);
  const b = pickOther(rng, pool, a);
  return [a, b, pickOther(rng, pool, b)];
}

/** Correction templates shared by every fact: explicit rejection, restatement, move, instead-of. */
function corrections(subject: string, restate: (v: string) => string) {
  return (value: string, old: string, rng: Rng) => {
    const t = rng.int(6);
    switch (t) {
      case 0:
        return { text: `no, ${subject} is ${value}, not ${old}`, template: "no-X-not-Y" };
      case 1:
        return { text: `Correction: ${restate(value)} now.`, template: "correction-restate" };
      case 2:
        return { text: `We moved ${subject} from ${old} to ${value} last week.`, template: "moved-from-to" };
      case 3:
        return { text: `Actually it's ${value} instead of ${old} for ${subject}.`, template: "instead-of" };
      case 4:
        return { text: `That's wrong, ${restate(value)} - ${old} was the old setup.`, template: "wrong-restate" };
      default:
        return { text: `Heads up: ${subject} changed, ${restate(value)} from now on.`, template: "changed-from-now-on" };
    }
  };
}

export function factCatalog(rng: Rng): Fact[] {
  const facts: Fact[] = [];
  const port = () => String(rng.range(30, 99) * 100 + rng.range(0, 99));
  for (const c of COMPONENTS) {
    const env = rng.pick(ENVS);
    const ports = chain(rng, [port(), port(), port(), port()]);
    facts.push({
      key: `port:${env}:${c}`,
      kind: "fact",
      values: ports,
      state: (v, r) =>
        r.pick([`The ${env} ${c} runs on port ${v}.`, `FYI the ${c} listens on port ${v} in ${env}.`, `${env} ${c} port: ${v}`]),
      correct: corrections(`the ${env} ${c} port`, (v) => `the ${env} ${c} runs on port ${v}`),
      ask: (r) =>
        r.pick([
          `What port does the ${env} ${c} listen on?`,
          `which port is the ${c} on in ${env}?`,
          `I need to curl the ${env} ${c}, what's its port?`,
        ]),
    });
    const dbs = chain(rng, DATABASES);
    facts.push({
      key: `db:${c}`,
      kind: "fact",
      values: dbs,
      state: (v, r) => r.pick([`The ${c} stores its data in ${v}.`, `Note: ${c} persistence is ${v}.`, `The ${c} database is ${v}.`]),
      correct: corrections(`the ${c} database`, (v) => `the ${c} stores its data in ${v}`),
      ask: (r) =>
        r.pick([`Which database does the ${c} use?`, `where does the ${c} keep its data?`, `what's the datastore behind the ${c}?`]),
    });
    if (rng.chance(0.6)) {
      facts.push({
        key: `deploy:${c}`,
        kind: "fact",
        values: chain(rng, DEPLOYERS),
        state: (v, r) => r.pick([`We deploy the ${c} with ${v}.`, `The ${c} is deployed via ${v}.`]),
        correct: corrections(`the ${c} deployment`, (v) => `we deploy the ${c} with ${v}`),
        ask: (r) => r.pick([`How do we deploy the ${c}?`, `what tool ships the ${c} to prod?`]),
      });
    }
    if (rng.chance(0.5)) {
      facts.push({
        key: `owner:${c}`,
        kind: "fact",
        values: chain(rng, PEOPLE),
        state: (v, r) => r.pick([`${v} owns the ${c}.`, `The ${c} owner is ${v}.`]),
        correct: corrections(`the ${c} owner`, (v) => `the ${c} owner is ${v}`),
        ask: (r) => r.pick([`Who owns the ${c}?`, `who should review changes to the ${c}?`]),
      });
    }
    if (rng.chance(0.4)) {
      const slug = c.replace(/ /g, "-");
      facts.push({
        key: `topic:${c}`,
        kind: "fact",
        values: chain(rng, TOPICS),
        state: (v) => `The ${c} publishes to the ${v} topic (config in config/${slug}.yaml).`,
        correct: corrections(`the ${c} topic`, (v) => `the ${c} publishes to the ${v} topic`),
        ask: (r) => r.pick([`Which topic does the ${c} publish to?`, `what kafka topic gets the ${c} messages?`]),
      });
    }
    if (rng.chance(0.4)) {
      facts.push({
        key: `node:${c}`,
        kind: "fact",
        values: chain(rng, NODE_VERSIONS),
        state: (v) => `The ${c} is pinned to node ${v}.`,
        correct: corrections(`the ${c} node version`, (v) => `the ${c} is pinned to node ${v}`),
        ask: () => `Which node version is the ${c} pinned to?`,
      });
    }
  }
  facts.push({
    key: "pref:package-manager",
    kind: "preference",
    values: ["npm", ...chain(rng, PACKAGE_MANAGERS.slice(1)).slice(0, 2)],
    state: (v, r) => r.pick([`Always use ${v} to install packages in this repo.`, `Please use ${v} for installing dependencies.`]),
    correct: (v, old, r) =>
      r.pick([
        { text: `no, use ${v}, not ${old}`, template: "no-use-X-not-Y" },
        { text: `Stop using ${old} for installs, we use ${v} now.`, template: "stop-using" },
        { text: `From now on install dependencies with ${v} instead of ${old}.`, template: "from-now-on-instead" },
      ]),
    ask: (r) => r.pick(["Which package manager should I use to install packages?", "how do I install the dependencies here?"]),
  });
  for (const suite of SUITES) {
    facts.push({
      key: `pref:runner:${suite}`,
      kind: "preference",
      values: chain(rng, RUNNER_FLAGS),
      state: (v) => `Always run the ${suite} tests with ${v}.`,
      correct: (v, old, r) =>
        r.pick([
          { text: `no, run the ${suite} tests with ${v}, not ${old}`, template: "no-run-X-not-Y" },
          { text: `Don't use ${old} for the ${suite} tests anymore; use ${v}.`, template: "dont-use-anymore" },
        ]),
      ask: () => `How should I run the ${suite} tests?`,
    });
  }
  facts.push({
    key: "pref:exports",
    kind: "preference",
    values: [EXPORT_STYLES[0]!, EXPORT_STYLES[1]!, EXPORT_STYLES[0]!],
    state: (v) => `Prefer ${v} for React components.`,
    correct: (v, old) => ({ text: `Actually use ${v} rather than ${old} for React components.`, template: "rather-than" }),
    ask: () => "What's the preferred export style for React components?",
  });
  facts.push({
    key: "pref:commits",
    kind: "preference",
    values: chain(rng, COMMIT_STYLES),
    state: (v) => `Write commit messages with ${v}.`,
    correct: (v, old) => ({ text: `no, commit messages use ${v}, not ${old}`, template: "no-X-not-Y" }),
    ask: () => "How should commit messages be written?",
  });
  facts.push({
    key: "pref:branch",
    kind: "preference",
    values: chain(rng, BRANCHES),
    state: (v) => `Never push directly to ${v}; open a pull request.`,
    correct: (v, old) => ({ text: `The protected branch is ${v} now, not ${old}.`, template: "is-now-not" }),
    ask: () => "Which branch must I never push to directly?",
  });
  return facts;
}
