/**
 * The 40 user turns of the benchmark session, in order: 30 turns of work on hono (reads of real
 * source files, noisy commands, searches of stored output, a few turns that only talk), then 10
 * questions whose answers were only in results of the first turns. The scripted model
 * (model-script.ts) plays it: a work turn makes its tool calls (one assistant message per group)
 * then answers; a question finds the earlier call's result and answers from it, following the
 * pointer when the result was pruned.
 */
import { DEV_LOG, TEST_LOG } from "./project.ts";

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
  /** The earlier call whose result held the answer (the first call with this name and these arguments). */
  target: ToolStep;
  /** The answer is the first line of that result matching this regular expression. */
  pattern: string;
  /** How the text comes back when needed: the pointer's context_get, or a search of the stored output (for a receipt). */
  via: "get" | "search";
  /** The search query (via "search"). */
  query?: string;
};

export type Turn = WorkTurn | QuestionTurn;

const read = (path: string, extra: Record<string, unknown> = {}): ToolStep => ({ name: "read", arguments: { path, ...extra } });
const bash = (command: string): ToolStep => ({ name: "bash", arguments: { command } });
const search = (query: string): ToolStep => ({ name: "context_search", arguments: { query } });
const work = (prompt: string, steps: ToolStep[][], answer: string): WorkTurn => ({ kind: "work", prompt, steps, answer });

const GREP_HEADERS = 'grep -rn "headers.set\\|\\.header(" src --include=*.ts | grep -v "\\.test\\.ts" | head -150';
const FIND_BIG = 'find src -name "*.ts" -size +8k ! -name "*.test.ts" | xargs wc -l | sort -n';

export const WORK_TURNS: readonly WorkTurn[] = [
  work(
    "I'm new to this repo. Show me the top level and the package manifest.",
    [[bash("ls -la"), read("package.json")]],
    "This is hono: the root has src/, docs/, benchmarks/ and runtime-tests/; package.json exports one entry per adapter, middleware and helper, and the tests run with vitest.",
  ),
  work(
    "List every source file with its size so we know what we're dealing with.",
    [[bash("ls -laR src")]],
    "The listing was stored (about 730 lines). src/ holds the core (hono-base.ts, context.ts, request.ts, types.ts), plus adapter/, helper/, jsx/, middleware/, router/ and utils/.",
  ),
  work(
    "How does a request get dispatched? Start with hono-base.ts.",
    [[read("src/hono-base.ts")]],
    "Hono extends HonoBase; fetch() calls #dispatch, which matches the route, builds a Context and composes the matched handlers with the error and not-found handlers.",
  ),
  work(
    "Now the Context object: how are response headers set?",
    [[read("src/context.ts")]],
    "Context keeps headers lazily: c.header() writes into a Headers object that is created on first use and merged into the Response when c.res is read or a body helper is called.",
  ),
  work(
    "Where else in the code are headers set?",
    [[bash(GREP_HEADERS)]],
    "Headers are set in the adapters, in cors, secure-headers, etag, cache and the cookie helper; most call c.header(), a few write to c.res.headers directly.",
  ),
  work(
    "Read the request wrapper too.",
    [[read("src/request.ts")]],
    "HonoRequest wraps the raw Request: param(), query(), header(), parseBody() with a body cache so the body can be read more than once.",
  ),
  work(
    "The dev server logged some 500s this morning. Show me its log.",
    [[bash(`cat ${DEV_LOG}`)]],
    "Two 500s, both POST /api/session with a TypeError reading 'get' of undefined inside getCookie, called from the session middleware.",
  ),
  work(
    "Which cookie-related files are there? Search the stored listing.",
    [[search("cookie index.ts")]],
    "The cookie code lives in src/helper/cookie/index.ts (the helper) and src/utils/cookie.ts (parse and serialize).",
  ),
  work(
    "Read the cookie helper and the cookie utils.",
    [[read("src/helper/cookie/index.ts"), read("src/utils/cookie.ts")]],
    "getCookie() reads c.req.raw.headers.get('Cookie'); if the context has no raw request it would throw exactly like the log. parse() splits on ';' and validates names.",
  ),
  work(
    "What did the last test run say?",
    [[bash(`cat ${TEST_LOG}`)]],
    "Two cookie test files failed on a cookie with an empty value (expected undefined, got ''); everything else passed.",
  ),
  work(
    "Find every use of setCookie and serialize.",
    [[bash('grep -rn "setCookie\\|serialize(" src --include=*.ts | grep -v "\\.test\\.ts"')]],
    "setCookie and serialize are used by the cookie helper, the JWT middleware and the CSRF middleware.",
  ),
  work(
    "Read the secure-headers middleware, it sets cookies-related headers too.",
    [[read("src/middleware/secure-headers/secure-headers.ts")]],
    "secure-headers builds its header list once per configuration and sets them after next(); it does not touch cookies, so it is not our bug.",
  ),
  work(
    "The stack trace also mentioned rendering. Read the JSX DOM renderer.",
    [[read("src/jsx/dom/render.ts")]],
    "render.ts is the client-side renderer (diffing, effects, portals); it is not on the server path, so it is unrelated to the 500s.",
  ),
  work(
    "Show me how the handler types are declared in types.ts (the part with HandlerInterface).",
    [[read("src/types.ts", { offset: 100, limit: 260 })]],
    "HandlerInterface overloads app.get/post/... for 1 to 10 handlers, threading the path, input and environment types through each.",
  ),
  work(
    "Which source files are big?",
    [[bash(FIND_BIG)]],
    "The biggest are types.ts, intrinsic-elements.ts, render.ts, context.ts and the aws-lambda handler.",
  ),
  work(
    "Read the body parser utility.",
    [[read("src/utils/body.ts")]],
    "parseBody handles multipart and urlencoded bodies, with an `all` option for repeated keys and `dot` for nested names.",
  ),
  work(
    "Summarize what we know so far.",
    [],
    "So far: the 500s come from getCookie on a context whose raw request headers are missing; the cookie tests fail on empty values; the dispatch path and Context look correct. Next: check the middleware that builds the context for sessions and how parse() treats empty values.",
  ),
  work(
    "Show me the middleware folder and how long each index is.",
    [[bash("ls -la src/middleware && wc -l src/middleware/*/index.ts")]],
    "There are 25 middleware; most index.ts files are under 200 lines, cache and secure-headers are the largest.",
  ),
  work(
    "Read the cache middleware.",
    [[read("src/middleware/cache/index.ts")]],
    "The cache middleware keys on the URL, respects Vary, and clones responses before putting them into the cache.",
  ),
  work(
    "Where does the code throw?",
    [[bash('grep -rn "throw new" src --include=*.ts | grep -v "\\.test\\.ts"')]],
    "Most throws are HTTPException in middleware (401/403/413) and plain Errors for misuse in the router and JSX.",
  ),
  work(
    "Look at context.ts again around the header method.",
    [[read("src/context.ts", { offset: 420, limit: 120 })]],
    "The header method deletes the header when the value is undefined and appends when `append` is set, else sets.",
  ),
  work(
    "Read the regexp router and the trie node.",
    [[read("src/router/reg-exp-router/router.ts"), read("src/router/trie-router/node.ts")]],
    "RegExpRouter compiles all routes into one regular expression per method; the trie router walks nodes segment by segment.",
  ),
  work(
    "Read the AWS Lambda adapter: production runs there.",
    [[read("src/adapter/aws-lambda/handler.ts")]],
    "The Lambda handler converts API Gateway v1/v2 and ALB events into Requests; cookies from v2 events come in event.cookies and are joined into a Cookie header.",
  ),
  work(
    "Search the stored output for the session errors.",
    [[search("TypeError reading get session")]],
    "The stored output has the two TypeErrors from the dev log at /api/session.",
  ),
  work(
    "Show me the end of the dev log again.",
    [[bash(`tail -n 40 ${DEV_LOG}`)]],
    "The last 40 lines are ordinary requests; no new 500s since the second one.",
  ),
  work(
    "Read the headers utility.",
    [[read("src/utils/headers.ts")]],
    "headers.ts is a typed list of known request and response header names; no logic.",
  ),
  work(
    "Read the factory helper, the session middleware is built with it.",
    [[read("src/helper/factory/index.ts")]],
    "createFactory/createMiddleware only carry types; the session middleware built with it gets the same Context as any other.",
  ),
  work(
    "List the exported types of types.ts.",
    [[bash('grep -n "^export type" src/types.ts')]],
    "types.ts exports about 35 types: Env, Handler, MiddlewareHandler, Next, Input, Schema and the path/param helpers.",
  ),
  work(
    "Read intrinsic-elements.ts, I want to rule out the JSX typings.",
    [[read("src/jsx/intrinsic-elements.ts")]],
    "intrinsic-elements.ts is only JSX attribute typings; nothing that runs.",
  ),
  work(
    "OK. Draft a fix plan.",
    [],
    "Plan: (1) in the session middleware, read cookies only after checking c.req.raw; (2) make parse() keep empty cookie values as '' and update the two failing tests; (3) add a test for a POST /api/session without a Cookie header; (4) re-run the dev server and the test suite.",
  ),
];

const ask = (prompt: string, target: ToolStep, pattern: string, via: "get" | "search" = "get", query?: string): QuestionTurn => ({
  kind: "question",
  prompt,
  target,
  pattern,
  via,
  ...(query ? { query } : {}),
});

export const QUESTION_TURNS: readonly QuestionTurn[] = [
  ask("Quote exactly the line of hono-base.ts that declares #dispatch, as you read it earlier.", read("src/hono-base.ts"), "#dispatch\\("),
  ask(
    "Quote exactly the line of context.ts that declared the header method when you first read it.",
    read("src/context.ts"),
    "^\\s*header\\b.*=",
  ),
  ask("What exactly did the dev log say about the first 500 on /api/session? Quote the line.", bash(`cat ${DEV_LOG}`), " 500 .*req="),
  ask(
    "In the header grep from earlier, which line was the first hit in src/context.ts? Quote it.",
    bash(GREP_HEADERS),
    "^src/context\\.ts:",
  ),
  ask("Quote the createPortal line of render.ts as you read it.", read("src/jsx/dom/render.ts"), "^export const createPortal"),
  ask(
    "Quote the line that opened the HandlerInterface declaration in the part of types.ts you read.",
    read("src/types.ts", { offset: 100, limit: 260 }),
    "^export interface HandlerInterface",
  ),
  ask("Which test failed first in the test run you showed me? Quote its line.", bash(`cat ${TEST_LOG}`), "×"),
  ask(
    "In the full listing of src from the start, what did the line for hono-base.ts say? Quote it.",
    bash("ls -laR src"),
    " hono-base\\.ts$",
    "search",
    "hono-base.ts",
  ),
  ask("In the big-files list, what line count did src/context.ts have? Quote the line.", bash(FIND_BIG), "src/context\\.ts$"),
  ask(
    "When you searched for the cookie files, what was the first matching line shown? Quote it.",
    search("cookie index.ts"),
    "^\\s*\\d+: ",
  ),
];

export const TURNS: readonly Turn[] = [...WORK_TURNS, ...QUESTION_TURNS];
/** The changes on disk happen before this turn (1-based). */
export const CHANGE_BEFORE_TURN = WORK_TURNS.length + 1;
