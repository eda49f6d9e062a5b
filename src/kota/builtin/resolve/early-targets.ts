/**
 * A first index points its imports at their files while the parsers still work, instead of all of
 * them after the last file: the warm resolver (resolve-imports.ts) answers each batch's imports
 * right after the batch is written, and an answer is written (code_imports.target_id and status) at
 * the start of the transaction of a later batch, once the file it names is stored and has its id.
 * The pass that ends the run then looks only at the imports whose answer is not written, when the
 * warm resolver's answers are the run's (the files and configs it was built from); else it reads
 * every import and writes each one whose answer differs. Either way the index is the same. On
 * vite's packages that pass wrote some 3,700 rows after the parser's last answer, now about 130.
 */
import type { Db } from "../../../db/open.ts";
import type { ImportKind } from "../parse/facts.ts";
import { answerKey, statusOf, type WarmResolver } from "./resolve-imports.ts";

export type EarlyTargets = {
  /** Files just stored (inside the batch's transaction): their paths and ids, in the same order. */
  stored(paths: readonly string[], ids: readonly number[]): void;
  /** An import just stored, after the warm resolver answered it. */
  answered(importId: number, from: string, specifier: string, kind: ImportKind): void;
  /** Writes the answers whose file was stored by now (inside a batch's transaction). */
  write(): void;
  /** The imports answered whose answer is not written: their file not stored (yet), or no batch since. */
  unwritten(): number[];
};

type Answer = { importId: number; target: number | null; status: number };

export function earlyTargets(db: Db, warm: WarmResolver): EarlyTargets {
  const update = db.prepare("UPDATE code_imports SET target_id = ?, status = ? WHERE id = ?");
  const idByPath = new Map<string, number>();
  /** Answers naming a file not stored yet, by its path. */
  const waiting = new Map<string, number[]>();
  let ready: Answer[] = [];
  return {
    stored(paths, ids) {
      paths.forEach((path, i) => {
        const id = ids[i]!;
        idByPath.set(path, id);
        const imports = waiting.get(path);
        if (!imports) return;
        waiting.delete(path);
        for (const importId of imports) ready.push({ importId, target: id, status: 1 });
      });
    },
    answered(importId, from, specifier, kind) {
      const r = warm.answers.get(answerKey(from, specifier, kind));
      if (!r) return;
      const status = statusOf(r);
      if (r.status !== "resolved") {
        // An import is stored unresolved (no target, status 0): only another answer needs writing.
        if (status !== 0) ready.push({ importId, target: null, status });
        return;
      }
      const target = idByPath.get(r.path);
      if (target !== undefined) ready.push({ importId, target, status });
      else {
        const list = waiting.get(r.path);
        if (list) list.push(importId);
        else waiting.set(r.path, [importId]);
      }
    },
    write() {
      for (const a of ready) update.run(a.target, a.status, a.importId);
      ready = [];
    },
    unwritten() {
      return [...ready.map((a) => a.importId), ...[...waiting.values()].flat()];
    },
  };
}
