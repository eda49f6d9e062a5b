/**
 * Parsing runs in helper processes (parse-child.ts), never in the process that serves pi or an MCP
 * client: the native parser can crash on hostile input, and a crash must cost one file, not the
 * host. The pool keeps up to `size` parsers (a second only for a large batch), several requests in
 * flight each, answered in order, so the request at the head of a parser's queue is the one it was
 * working on when it died. That file is reported and skipped; the others are sent again to a fresh
 * parser, started after a backoff that grows with the crashes of the last minute. After five in a
 * minute the pool rests: files are stored unparsed and marked to be tried again. A parser that
 * dies before it is ready means the parser cannot run at all: that is an error for the caller.
 * A parser that answers nothing for `timeoutMs` is killed and its file skipped the same way.
 */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { type CrashBackoff, crashBackoff } from "../../../crash-backoff.ts";
import { AppError } from "../../../errors.ts";
import { sha256 } from "../../../hash.ts";
import { lineSplitter } from "../../../json-lines.ts";
import { type HelperCommand, helperCommand } from "../../helper-process.ts";
import type { StoredFacts } from "./facts.ts";
import type { ParseReply } from "./parse-child.ts";
import { type ParserProcess, spawnParser, takeEarlyParser } from "./parser-process.ts";
import { searchBody, storedOutcome } from "./redact-facts.ts";

/** `file`: the absolute path the parser reads (the words of a file left unparsed are read from it here). */
/** `size`: the file's bytes when known (how much work is queued per parser is measured in bytes too). */
export type ParseJob = { path: string; file: string; size?: number };
/** `retry`: not parsed now (the pool is resting, or the file changed while parsed); store it so that the next check parses it again. */
export type ParseOutcome = { facts: StoredFacts; body: string; hash: string | null; retry?: boolean };

export type ParsePool = {
  parse(jobs: ParseJob[]): Promise<ParseOutcome[]>;
  /**
   * Starts parsers before their work is known (a full index: while the files are listed), up to
   * `files` / 50 of them within the pool's size, so their start overlaps the caller's.
   */
  prestart(files: number): void;
  /** Ends every parser process (waits up to a second for them to exit). */
  close(): Promise<void>;
  /** Parser processes started, how many of them crashed, and requests sent and not answered yet (for tests and status). */
  stats(): { started: number; crashed: number; running: number; inFlight: number };
};

export type ParsePoolOptions = {
  /** The command that runs a parser (default: this program in the kota-parser role). */
  helper?: HelperCommand;
  /** Most parser processes (default: one per core beside the indexing process's own, 1 to 2; more than one only for a batch of many files). */
  size?: number;
  /**
   * Requests in flight (default 256), up to `inFlightBytes` of source (default 512 KiB, about 200 ms
   * of parsing) once a parser has 4, shared by the running parsers: enough queued work that a parser
   * keeps going while this process writes a batch of files and resolves their imports (50-100 ms on
   * two busy cores, when it sends nothing: with 128 KiB the one parser ran dry there, some 10% of its
   * time on a cold index), and little enough that parsers finish close together.
   * A pool of one parser (two cores) has no other parser to finish with: it defaults to 1,024
   * requests and 4 MiB, all its files sent ahead (ONE_PARSER_*).
   * Replies come back in order, so a crash still blames the file at the head.
   */
  inFlight?: number;
  inFlightBytes?: number;
  /** A parser that answers nothing for this long is killed, its file skipped (default 30 s). */
  timeoutMs?: number;
  /** Parsers with nothing to do for this long exit (default 5 minutes). */
  idleMs?: number;
  log?: (line: string) => void;
  now?: () => number;
};

type Task = { job: ParseJob; done: (o: ParseOutcome) => void; fail: (e: Error) => void };
/** A job whose size is not given counts as this many bytes. */
const UNKNOWN_SIZE = 4096;
const MIN_IN_FLIGHT = 4;
const bytesOf = (t: Task) => t.job.size ?? UNKNOWN_SIZE;
type Timer = ReturnType<typeof setTimeout>;
/** `progressAt`: when it last answered (or got work while idle); one timer per parser checks it. */
type Parser = {
  proc: ParserProcess;
  queue: Task[];
  ready: boolean;
  killed: string | null;
  timer: Timer | null;
  progressAt: number;
  /** Source bytes of the requests in its queue. */
  bytes: number;
};

function unparsed(job: ParseJob, message: string, retry = false): ParseOutcome {
  let bytes: Buffer | null = null;
  try {
    bytes = readFileSync(job.file);
  } catch {
    // gone meanwhile: nothing to search
  }
  return {
    facts: { symbols: [], imports: [], exports: [], refs: [], error: { line: 1, message } },
    body: bytes ? searchBody(bytes.toString("utf8")) : "",
    hash: bytes ? sha256(bytes) : null,
    ...(retry ? { retry } : {}),
  };
}

/**
 * One parser per core beside the one the indexing process keeps busy (it redacts, makes the search
 * words, writes and resolves: about as much CPU as one parser), at most two: each parser warms its
 * code up on its own (a few hundred ms of CPU), which another process rarely wins back. On two cores
 * that is one parser: the two processes keep both cores busy, with some 15% less CPU than two parsers.
 */
function defaultSize(): number {
  return Math.min(2, Math.max(1, availableParallelism() - 1));
}

/** Another parser starts while more than this many files wait per running parser. */
const SPAWN_BACKLOG = 16;

/**
 * The in-flight limits of a pool of one parser. The pool sends more only as this process handles
 * the answers, and it handles none while it writes a batch, builds the indexes or redacts a backlog
 * of answers; meanwhile the answers it has not read yet still count as in flight. With 512 KiB the
 * one parser waited for work 22-68 ms of a cold index of hono (390 files; 25-56 ms of vite's
 * packages), stopping 6-8 times; with these limits 1-4 ms (traced per request, two busy cores).
 * A queue this long costs nothing when there is no other parser to finish close to.
 */
const ONE_PARSER_IN_FLIGHT = 1024;
const ONE_PARSER_IN_FLIGHT_BYTES = 4 * 1024 * 1024;

export function createParsePool(o: ParsePoolOptions = {}): ParsePool {
  const size = Math.max(1, o.size ?? defaultSize());
  const inFlight = Math.max(1, o.inFlight ?? (size === 1 ? ONE_PARSER_IN_FLIGHT : 256));
  const inFlightBytes = o.inFlightBytes ?? (size === 1 ? ONE_PARSER_IN_FLIGHT_BYTES : 512 * 1024);
  /**
   * Whether a parser takes one more request now (`low`: half the limits, where topping up starts).
   * Running parsers share the limits (`share`: how many run), so that they still finish close together.
   */
  const wants = (p: Parser, share: number, low = false): boolean => {
    const n = p.queue.length;
    if (n < Math.min(MIN_IN_FLIGHT, inFlight)) return true;
    const most = Math.max(1, Math.floor(inFlight / share));
    const bytes = inFlightBytes / share;
    return low ? n <= most >> 1 && p.bytes <= bytes / 2 : n < most && p.bytes < bytes;
  };
  const timeoutMs = o.timeoutMs ?? 30_000;
  const idleMs = o.idleMs ?? 300_000;
  const now = o.now ?? Date.now;
  const backoff: CrashBackoff = crashBackoff(now);
  const waiting: Task[] = [];
  const parsers = new Set<Parser>();
  let nextId = 0;
  let started = 0;
  let crashed = 0;
  let restartAt = 0;
  let restartTimer: Timer | null = null;
  let idleTimer: Timer | null = null;
  let closed = false;
  const ids = new WeakMap<Task, number>();

  const command = (): HelperCommand => o.helper ?? helperCommand("kota-parser");

  /**
   * The parser's watch: one timer while it has work, not one per answer. It fires when the answer at
   * the head could be overdue and checks the time of the last answer; a parser silent that long is killed.
   */
  const armTimeout = (p: Parser) => {
    if (p.timer || p.queue.length === 0) return;
    p.timer = setTimeout(
      () => {
        p.timer = null;
        if (p.queue.length === 0 || p.killed !== null) return;
        if (performance.now() - p.progressAt < timeoutMs) return armTimeout(p);
        p.killed = `took over ${Math.round(timeoutMs / 1000)} s to parse`;
        p.proc.kill("SIGKILL");
      },
      Math.max(1, p.progressAt + timeoutMs - performance.now()),
    );
    p.timer.unref?.();
  };

  const spawn = (): Parser | null => {
    const c = command();
    let proc: Parser["proc"];
    try {
      // The first one may have been started ahead, as the program started (parser-process.ts).
      proc = takeEarlyParser(c) ?? spawnParser(c);
    } catch (error) {
      failAll(new AppError("PARSER_UNAVAILABLE", unavailable(`${c.command} could not be started: ${(error as Error).message}`)));
      return null;
    }
    started++;
    const p: Parser = { proc, queue: [], ready: false, killed: null, timer: null, progressAt: performance.now(), bytes: 0 };
    parsers.add(p);
    const splitter = lineSplitter((line) => {
      if (!line) return;
      let reply: ParseReply;
      try {
        reply = JSON.parse(line) as ParseReply;
      } catch {
        o.log?.(`kota parser: unreadable answer ${line.slice(0, 200)}`);
        return;
      }
      if ("ready" in reply) {
        p.ready = true;
        return;
      }
      const head = p.queue[0];
      if (!head || ids.get(head) !== reply.id) return;
      p.queue.shift();
      p.bytes -= bytesOf(head);
      p.progressAt = performance.now();
      if (p.queue.length === 0 && p.timer) {
        clearTimeout(p.timer);
        p.timer = null;
      }
      head.done(storedOutcome(head.job.file, reply.facts, reply.hash));
      pump();
    });
    const stderr = lineSplitter((line) => {
      if (line.trim()) o.log?.(`kota parser: ${line.slice(0, 300)}`);
    });
    void (async () => {
      for await (const chunk of proc.stderr) stderr.push(chunk);
    })().catch(() => undefined);
    void (async () => {
      try {
        for await (const chunk of proc.stdout) splitter.push(chunk);
        splitter.end();
      } catch {
        // the pipe broke: the exit below says why
      }
      await proc.exited;
      gone(p);
    })();
    return p;
  };

  const unavailable = (why: string) =>
    `The code index's parser process cannot run (${why}). Reinstall pi-sidecar, or use the kotadb backend (kota.backend: kotadb).`;

  const failAll = (error: Error) => {
    for (const p of parsers) for (const t of p.queue.splice(0)) t.fail(error);
    for (const t of waiting.splice(0)) t.fail(error);
  };

  /** A parser ended: what it was working on is blamed (or, not yet ready, the parser itself). */
  const gone = (p: Parser) => {
    parsers.delete(p);
    if (p.timer) clearTimeout(p.timer);
    if (closed) {
      for (const t of p.queue.splice(0)) t.fail(new AppError("CANCELLED", "The code index was closed while parsing."));
      return;
    }
    const queue = p.queue.splice(0);
    if (queue.length === 0 && p.killed === "idle") {
      pump();
      return;
    }
    const signal = p.proc.signalCode ?? `exit code ${p.proc.exitCode}`;
    if (!p.ready && p.killed === null) {
      crashed++;
      failAll(new AppError("PARSER_UNAVAILABLE", unavailable(`it exited with ${signal} before it was ready`)));
      for (const t of queue) t.fail(new AppError("PARSER_UNAVAILABLE", unavailable(`it exited with ${signal}`)));
      return;
    }
    if (queue.length > 0) {
      const [head, ...rest] = queue;
      crashed++;
      backoff.crashed();
      const why = p.killed ?? `the parser crashed on this file (${signal})`;
      o.log?.(`kota parser: ${why}: ${head!.job.path}`);
      head!.done(unparsed(head!.job, `${why}: not parsed, only its text is searchable`));
      waiting.unshift(...rest);
    }
    const wait = backoff.waitMs();
    if (wait !== null) restartAt = now() + wait;
    pump();
  };

  /** While resting after repeated crashes, files are stored unparsed and tried again later. */
  const rest = (): boolean => {
    if (backoff.waitMs() !== null) return false;
    const seconds = backoff.restSeconds();
    for (const t of waiting.splice(0))
      t.done(unparsed(t.job, `not parsed: the parser crashed 5 times in the last minute; it is tried again in ${seconds} s`, true));
    return true;
  };

  const send = (p: Parser, t: Task): boolean => {
    const id = nextId++;
    ids.set(t, id);
    if (p.queue.length === 0) p.progressAt = performance.now();
    p.queue.push(t);
    p.bytes += bytesOf(t);
    try {
      p.proc.stdin.write(`${JSON.stringify({ id, path: t.job.path, file: t.job.file })}\n`);
    } catch {
      return false; // the parser is gone: its exit puts the task back
    }
    armTimeout(p);
    return true;
  };

  const pump = () => {
    if (closed) return;
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    let live = 0;
    for (const p of parsers) if (p.killed === null) live++;
    if (waiting.length > 0 && live === 0) {
      if (rest()) return;
      if (now() < restartAt) {
        restartTimer ??= setTimeout(
          () => {
            restartTimer = null;
            pump();
          },
          Math.max(0, restartAt - now()),
        );
        return;
      }
    }
    // One parser for any work, more while the backlog is large.
    while (waiting.length > 0 && parsers.size < size && (live === 0 || waiting.length > SPAWN_BACKLOG * live)) {
      if (!spawn()) return;
      live++;
    }
    for (const p of parsers) {
      // Topped up once half its requests are answered: one write for several files, not one per answer.
      if (p.killed !== null || waiting.length === 0 || !wants(p, live, true)) continue;
      while (waiting.length > 0 && wants(p, live)) if (!send(p, waiting.shift()!)) break;
      try {
        p.proc.stdin.flush();
      } catch {
        // gone: its exit handles the rest
      }
    }
    if (waiting.length === 0 && [...parsers].every((p) => p.queue.length === 0)) {
      idleTimer = setTimeout(() => {
        for (const p of parsers) {
          p.killed = "idle";
          p.proc.stdin.end();
        }
      }, idleMs);
      idleTimer.unref?.();
    }
  };

  return {
    parse(jobs) {
      if (closed) return Promise.reject(new AppError("CANCELLED", "The code index is closed."));
      const out = jobs.map(
        (job) =>
          new Promise<ParseOutcome>((done, fail) => {
            waiting.push({ job, done, fail });
          }),
      );
      pump();
      return Promise.all(out);
    },
    prestart(files) {
      if (closed) return;
      const want = Math.min(size, Math.ceil(files / 50));
      while (parsers.size < want && now() >= restartAt && backoff.waitMs() === 0) if (!spawn()) return;
      pump(); // with no work yet, this arms their idle exit
    },
    async close() {
      closed = true;
      // A parser started ahead and never needed (nothing was parsed) ends with the pool.
      try {
        takeEarlyParser(command())?.stdin.end();
      } catch {
        // gone already
      }
      if (idleTimer) clearTimeout(idleTimer);
      if (restartTimer) clearTimeout(restartTimer);
      for (const t of waiting.splice(0)) t.fail(new AppError("CANCELLED", "The code index was closed while parsing."));
      const exits: Promise<unknown>[] = [];
      for (const p of parsers) {
        p.killed = "closed";
        exits.push(p.proc.exited);
        try {
          p.proc.stdin.end();
        } catch {
          // already gone
        }
        // One with work in hand is stopped; an idle one ends with its input.
        if (p.queue.length > 0) p.proc.kill();
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.all(exits), new Promise((done) => (timer = setTimeout(done, 1000)))]);
      clearTimeout(timer);
      for (const p of parsers) p.proc.kill("SIGKILL");
    },
    stats: () => ({ started, crashed, running: parsers.size, inFlight: [...parsers].reduce((n, p) => n + p.queue.length, 0) }),
  };
}
