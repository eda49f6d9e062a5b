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
 * or more parts (`/srv/app/data`, `~/notes/x`, `./build/out`, `C:\Users\x`).
 */
const PLACE = /[a-z][a-z0-9+.-]*:\/\/\S+|\b[\w.-]+@[\w.-]+:[\w./-]+|(?<![\w.])(?:~|\.{1,2})?\/[\w@.+-]+\/[\w@.+/-]*|\b[a-z]:\\[^\s\\]+\\/i;

/** Whether a text names a place (PLACE). */
export const namesPlace = (text: string) => PLACE.test(lineBody(text));
