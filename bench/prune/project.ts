/**
 * The project the benchmark session works in: hono's real tree (unpacked from shared/corpora, file
 * times as in the tarball, so `ls -l` prints the same in every run) with what a developer's
 * checkout has beside it: a git history (one commit per file, oldest first, made with
 * `git fast-import` from the files themselves: their paths, sizes and exported names; fixed
 * authors and dates, so every run has the same hashes) and a focused type-check config that
 * fails (no node_modules: test files miss their runner's types). `changeProject` is what happens
 * before the questions: files the agent read are edited and committed, a locked version moves,
 * so reading or running anything now shows other text than before.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { CORPORA_DIR, type Corpus, unpackCorpus } from "../kota/corpora.ts";
import { createRng } from "../prng.ts";

export const TYPECHECK = "tsc -p tsconfig.check.json --pretty false";
const TSCONFIG = {
  extends: "./tsconfig.base.json",
  compilerOptions: { noEmit: true, composite: false, declaration: false, rootDir: "./src", types: [] },
  include: ["src/utils/*.ts", "src/helper/cookie/*.ts"],
};

/** Lines edited before the questions: the first line matching each pattern gets a comment appended, and a header goes on top. */
export const EDITS: readonly { path: string; pattern: RegExp }[] = [
  { path: "src/hono-base.ts", pattern: /#dispatch\(/ },
  { path: "src/context.ts", pattern: /^\s*header\b.*=/ },
  { path: "src/request.ts", pattern: /^export class HonoRequest/ },
  { path: "src/utils/cookie.ts", pattern: /^export const parse\b/ },
  { path: "src/utils/cookie.test.ts", pattern: /describe\(/ },
];
/** The locked package whose version moves before the questions. */
export const LOCKED = "@hono/eslint-config";

function files(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name === ".git") continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile()) out.push(relative(root, full));
    }
  };
  walk(root);
  return out;
}

const AUTHORS = ["Yusuke Wada <yusuke@example.com>", "Taku Amano <taku@example.com>", "Ame Fujiwara <ame@example.com>"];

/** A commit message from the file itself: what it adds and, for code, the names it exports. */
function message(path: string, text: string): string {
  const names = [...text.matchAll(/^export (?:const|function|class|type|interface|async function) (\w+)/gm)].map((m) => m[1]);
  const kind = /\.test\.tsx?$/.test(path) ? "tests for" : /\.(ts|tsx|js|mjs)$/.test(path) ? "module" : "file";
  const lines = [`feat: add ${kind} ${path}`, ""];
  lines.push(`Adds ${path} (${text.split("\n").length} lines).`);
  if (names.length > 0) lines.push(`Exports: ${names.slice(0, 8).join(", ")}${names.length > 8 ? `, and ${names.length - 8} more` : ""}.`);
  return `${lines.join("\n")}\n`;
}

function git(root: string, args: string[], stdin?: Uint8Array): string {
  const r = Bun.spawnSync(["git", ...args], {
    cwd: root,
    stdin: stdin ?? "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "", HOME: root, GIT_CONFIG_NOSYSTEM: "1" },
  });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/** One commit per file, oldest first, through `git fast-import` (seconds, not minutes). */
function history(root: string, seed: number): void {
  const r = createRng(seed);
  git(root, ["init", "-q", "-b", "main"]);
  git(root, ["config", "core.fileMode", "false"]);
  const parts: Buffer[] = [];
  const data = (b: Buffer | string) => {
    const buf = Buffer.isBuffer(b) ? b : Buffer.from(b);
    parts.push(Buffer.from(`data ${buf.length}\n`), buf, Buffer.from("\n"));
  };
  let t = Date.UTC(2022, 0, 3, 9, 0, 0) / 1000;
  files(root).forEach((path, i) => {
    const bytes = readFileSync(join(root, path));
    t += r.range(1800, 40_000);
    const who = `${r.pick(AUTHORS)} ${t} +0900`;
    parts.push(Buffer.from(`commit refs/heads/main\nmark :${i + 1}\nauthor ${who}\ncommitter ${who}\n`));
    data(message(path, bytes.toString("utf8")));
    if (i > 0) parts.push(Buffer.from(`from :${i}\n`));
    parts.push(Buffer.from(`M ${statSync(join(root, path)).mode & 0o111 ? "100755" : "100644"} inline ${path}\n`));
    data(bytes);
  });
  git(root, ["fast-import", "--quiet"], Buffer.concat(parts));
  git(root, ["reset", "-q"]);
}

/** shared/corpora beside the repository, or beside a folder above it (a worktree under /work/wt). */
function corporaDir(): string {
  for (let dir = join(import.meta.dir, "../.."); dirname(dir) !== dir; dir = dirname(dir)) {
    const here = join(dirname(dir), "shared/corpora");
    if (existsSync(here)) return here;
  }
  return CORPORA_DIR;
}

export type Project = { root: string; remove(): void };

/** hono's tree with its history and a type-check config, ready for a session. */
export function createProject(seed: number): Project {
  const corpus: Corpus = unpackCorpus("hono", corporaDir());
  writeFileSync(join(corpus.root, "tsconfig.check.json"), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  history(corpus.root, seed);
  return { root: corpus.root, remove: corpus.remove };
}

/** What changes on disk before the questions: edited files (committed), a moved locked version. */
export function changeProject(root: string, seed: number): void {
  const rng = createRng(seed + 7);
  for (const { path, pattern } of EDITS) {
    const full = join(root, path);
    const lines = readFileSync(full, "utf8").split("\n");
    const at = lines.findIndex((l) => pattern.test(l));
    if (at === -1) throw new Error(`changeProject: no line of ${path} matches ${pattern}`);
    lines[at] = `${lines[at]} // reviewed ${rng.hex(6)}`;
    writeFileSync(full, [`// Patched while investigating the cookie bug (${rng.hex(8)}).`, "", ...lines].join("\n"));
  }
  const lock = join(root, "bun.lock");
  const locked = readFileSync(lock, "utf8").replace(
    new RegExp(`${LOCKED.replace("/", "\\/")}@(\\d+)\\.(\\d+)\\.(\\d+)`, "g"),
    (_, a, b) => `${LOCKED}@${a}.${Number(b) + 1}.0`,
  );
  writeFileSync(lock, locked);
  chmodSync(lock, 0o644);
  git(root, ["add", "-A"]);
  git(root, ["-c", "user.name=Dev", "-c", "user.email=dev@example.com", "commit", "-q", "-m", "fix: cookie parsing of empty values"]);
}
