/**
 * A request in the imperative, or a wish reported of others, tacked on with a comma is a sentence
 * of its own (change-cues.ts): "the labels are too small, make the font bigger instead" reports,
 * then asks for work; its "instead" is the request's, and the prompt changes nothing said before.
 */
import { describe, expect, test } from "bun:test";
import { isCorrection, sentences, statementKind } from "../../src/memory/change-cues.ts";

describe("a request after a comma", () => {
  test("is split off, and its cue of change is a request's", () => {
    const text = "the labels are too small, make the font bigger instead";
    expect(sentences(text)).toEqual(["the labels are too small", "make the font bigger instead"]);
    expect(isCorrection(text, "prompt")).toBe(false);
    expect(statementKind("nice work, open a merge request for it")).toBe("task");
  });

  test("a wish reported of others after a comma is split off and changes nothing", () => {
    const text = "label printer question again, they want the batch code on it too, not just the date";
    expect(sentences(text)).toEqual(["label printer question again", "they want the batch code on it too, not just the date"]);
    expect(isCorrection(text, "prompt")).toBe(false);
  });

  test("a pronoun written with its auxiliary opens no imperative", () => {
    expect(sentences("sorry for the noise, im the new maintainer")).toEqual(["sorry for the noise, im the new maintainer"]);
  });

  test("a statement with a comma stays one sentence", () => {
    expect(sentences("we use pnpm, not npm")).toEqual(["we use pnpm, not npm"]);
    expect(isCorrection("we use pnpm, not npm", "prompt")).toBe(true);
  });
});
