/**
 * A question asking where (Li and Roth's LOC class, "Learning Question Classifiers", COLING 2002):
 * in a project's memory a place is a path, a URL, a remote or a bucket. A text naming one is
 * typed evidence for it, as a value is for a quantity (gate.ts).
 */
import { lineBody } from "./summary-line.ts";

/** "where does ...", "where are ...": the question's first word. */
export const asksPlace = (query: string) => /^\s*where\b/i.test(query);

/**
 * A URL or remote (`s3://bucket/x`, `https://host/path`, `git@host:group/repo.git`), a path of two
 * or more parts (`/srv/app/data`, `~/notes/x`, `./build/out`, `C:\Users\x`). What comes before the
 * part that decides is bounded or starts at a word's edge: a long run of word characters is read
 * once, not again from each of its characters.
 */
const PLACE =
  /\b[a-z][a-z0-9+.-]{0,15}:\/\/\S|\b[\w.-]{1,64}@[\w.-]{1,253}:[\w./-]|(?<![\w.])(?:~|\.{1,2})?\/[\w@.+-]+\/[\w@.+/-]*|\b[a-z]:\\[^\s\\]{1,255}\\/i;

/** Whether a text names a place (PLACE). */
export const namesPlace = (text: string) => PLACE.test(lineBody(text));
