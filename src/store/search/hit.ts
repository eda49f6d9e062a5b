/** What a search answers with: hits, each a few numbered lines of one stored text. */
import type { Window } from "./windows.ts";

export type HitLine = { line: number; text: string; match: boolean };
export type Hit = {
  sourceId: string;
  tool: string;
  chunk: number;
  chunks: number;
  lineStart: number;
  lineEnd: number;
  title: string;
  score: number;
  lines: HitLine[];
  more: number;
  text: string;
};
export type SourcedWindow = Window & { sourceId: string; tool: string };
