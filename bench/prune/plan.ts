/**
 * The benchmark session, in order: 14 turns of work on hono (reads and re-reads of real source
 * files, grep and find, the 264 KB lockfile, the git log, a failing type-check run twice, an edit
 * read back as a diff), then 10 questions whose answers were only in results of earlier turns
 * (the project changed on disk in between). The scripted model (model-script.ts) plays it: a work
 * turn makes its tool calls (one assistant message per group) then answers; a question finds the
 * earlier call's result and answers from what it sees, following a receipt, a pointer or pi's
 * full-output file when the line is not in view.
 */
import { TYPECHECK } from "./project.ts";

export type ToolStep = { name: string; arguments: Record<string, unknown> };

export type WorkTurn = {
  kind: "work";
  prompt: string;
  /** Each group is one assistant message (its calls run together). */
  steps: ToolStep[][];
  answer: string;
};

export type QuestionTurn = {
  kind: "question";
  prompt: string;
  /** The earlier call whose result held the answer: the `occurrence`-th call (default 1) with this name and these arguments. */
  target: ToolStep;
  occurrence?: number;
  /** The answer is the first line of that result matching this regular expression (JavaScript; also grep -P). */
  pattern: string;
  /** Words a search of stored output for that line would use (when the result is a receipt). */
  query: string;
};

export type Turn = WorkTurn | QuestionTurn;

const read = (path: string, extra: Record<string, unknown> = {}): ToolStep => ({ name: "read", arguments: { path, ...extra } });
const bash = (command: string): ToolStep => ({ name: "bash", arguments: { command } });
const work = (prompt: string, steps: ToolStep[][], answer: string): WorkTurn => ({ kind: "work", prompt, steps, answer });

export const GREP_HEADERS = 'grep -rn "headers.set\\|\\.header(" src --include=*.ts | grep -v "\\.test\\.ts" | head -150';
export const FIND_BIG = 'find src -name "*.ts" -size +8k ! -name "*.test.ts" | xargs wc -l | sort -n';
export const LOCKFILE = "cat bun.lock";
export const GIT_LOG = "git log --stat";
/** The agent's fix: parse() keeps a cookie with an empty value. */
export const FIX = `sed -i 's/if (validCookieValueRegEx.test(cookieValue)) {/if (cookieValue === "" || validCookieValueRegEx.test(cookieValue)) {/' src/utils/cookie.ts`;

export const WORK_TURNS: readonly WorkTurn[] = [
  work(
    "I'm new to this repo. Show me the top level and the package manifest.",
    [[bash("ls -la"), read("package.json")]],
    "This is hono: src/, docs/, benchmarks/ and runtime-tests/ at the top; package.json exports one entry per adapter, middleware and helper.",
  ),
  work(
    "How does a request get dispatched? Read hono-base.ts and compose.ts.",
    [[read("src/hono-base.ts"), read("src/compose.ts")]],
    "fetch() calls #dispatch, which matches the route, builds a Context and runs compose() over the matched handlers.",
  ),
  work(
    "Now the Context object: how are response headers set?",
    [[read("src/context.ts")]],
    "c.header() writes into a Headers object made on first use and merged into the Response.",
  ),
  work(
    "Where else in the code are headers set?",
    [[bash(GREP_HEADERS)]],
    "In the adapters, cors, secure-headers, etag, cache and the cookie helper.",
  ),
  work(
    "Which versions are locked? Show me the lockfile.",
    [[bash(LOCKFILE)]],
    "bun.lock pins the workspace's dev tools: eslint, typescript, vitest, wrangler and their trees.",
  ),
  work(
    "What happened in this repository so far? Show me the git log with stats.",
    [[bash(GIT_LOG)]],
    "One commit per file, oldest first: the build files, then src/ module by module, then the tests.",
  ),
  work("Run the type-check.", [[bash(TYPECHECK)]], "It fails: the test files miss vitest's types, and a few helpers have implicit anys."),
  work(
    "Read the cookie helper and the cookie utils.",
    [[read("src/helper/cookie/index.ts"), read("src/utils/cookie.ts")]],
    "getCookie() reads the Cookie header and calls parse(); parse() drops a cookie whose value fails the value check, an empty one too.",
  ),
  work(
    "Which source files are big?",
    [[bash(FIND_BIG)]],
    "The biggest are types.ts, intrinsic-elements.ts, render.ts, context.ts and the aws-lambda handler.",
  ),
  work(
    "Look at context.ts and hono-base.ts again: I want to compare header handling with dispatch.",
    [[read("src/context.ts"), read("src/hono-base.ts")]],
    "Both unchanged since I read them: headers are set on the Context, dispatch never touches them.",
  ),
  work(
    "Make parse keep cookies with an empty value, then show me the file.",
    [[bash(FIX)], [read("src/utils/cookie.ts")]],
    "Done: parse() now keeps a cookie with an empty value.",
  ),
  work("Run the type-check again.", [[bash(TYPECHECK)]], "Still failing on the test files' missing types; nothing new from the fix."),
  work(
    "Show me the handler types in types.ts and list its exported types.",
    [[read("src/types.ts", { offset: 100, limit: 260 }), bash('grep -n "^export type" src/types.ts')]],
    "HandlerInterface overloads app.get/post/... for 1 to 10 handlers; types.ts exports about 35 types.",
  ),
  work(
    "Read the request wrapper and the regexp router, and the cookie helper once more.",
    [[read("src/request.ts"), read("src/router/reg-exp-router/router.ts"), read("src/helper/cookie/index.ts")]],
    "HonoRequest wraps the raw Request with a body cache; RegExpRouter compiles one regex per method; the helper is unchanged.",
  ),
];

const ask = (prompt: string, target: ToolStep, pattern: string, query: string, occurrence?: number): QuestionTurn => ({
  kind: "question",
  prompt,
  target,
  pattern,
  query,
  ...(occurrence ? { occurrence } : {}),
});

export const QUESTION_TURNS: readonly QuestionTurn[] = [
  ask(
    "Quote exactly the line of hono-base.ts that declares #dispatch, as you read it earlier.",
    read("src/hono-base.ts"),
    "#dispatch\\(",
    "#dispatch",
  ),
  ask(
    "Quote exactly the line of context.ts that declared the header method when you first read it.",
    read("src/context.ts"),
    "^\\s*header\\b.*=",
    "header SetHeaders",
  ),
  ask(
    "Which version of @hono/eslint-config was locked in the lockfile you showed me? Quote its line.",
    bash(LOCKFILE),
    '^\\s*"@hono/eslint-config": \\[',
    "@hono/eslint-config",
  ),
  ask(
    "In the git log, what was the stat line for src/utils/cookie.ts? Quote it.",
    bash(GIT_LOG),
    "^ src/utils/cookie\\.ts +\\|",
    "src/utils/cookie.ts",
  ),
  ask(
    "In the first type-check, what was the first error reported in src/utils/cookie.test.ts? Quote it.",
    bash(TYPECHECK),
    "^src/utils/cookie\\.test\\.ts\\(",
    "src/utils/cookie.test.ts",
  ),
  ask(
    "In the second type-check, which error did src/utils/color.test.ts get about esbuild? Quote it.",
    bash(TYPECHECK),
    "^src/utils/color\\.test\\.ts\\(.*esbuild",
    "color.test.ts esbuild",
    2,
  ),
  ask(
    "In the header grep from earlier, which line was the first hit in src/context.ts? Quote it.",
    bash(GREP_HEADERS),
    "^src/context\\.ts:",
    "src/context.ts",
  ),
  ask(
    "In the big-files list, what line count did src/context.ts have? Quote the line.",
    bash(FIND_BIG),
    "src/context\\.ts$",
    "src/context.ts",
  ),
  ask(
    "Quote the line of the cookie utils that declared parse, as you first read it.",
    read("src/utils/cookie.ts"),
    "^export const parse\\b",
    "parse",
  ),
  ask(
    "Quote the line of request.ts that declared HonoRequest, as you read it.",
    read("src/request.ts"),
    "^export class HonoRequest",
    "HonoRequest",
  ),
];

export const TURNS: readonly Turn[] = [...WORK_TURNS, ...QUESTION_TURNS];
/** The changes on disk happen before this turn (1-based). */
export const CHANGE_BEFORE_TURN = WORK_TURNS.length + 1;

const same = (a: ToolStep, b: ToolStep) => a.name === b.name && JSON.stringify(a.arguments) === JSON.stringify(b.arguments);

/** The id the scripted model gives the `occurrence`-th work-turn call like `target` (model-script.ts makes ids the same way). */
export function targetCallId(target: ToolStep, occurrence = 1): string {
  let seen = 0;
  for (let t = 0; t < WORK_TURNS.length; t++) {
    const steps = WORK_TURNS[t]!.steps;
    for (let s = 0; s < steps.length; s++) {
      for (let k = 0; k < steps[s]!.length; k++)
        if (same(steps[s]![k]!, target) && ++seen === occurrence) return `call_t${t + 1}_s${s}_${k}`;
    }
  }
  throw new Error(`no work turn makes the call ${JSON.stringify(target)} ${occurrence} times`);
}
