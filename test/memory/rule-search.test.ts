/**
 * The offline rule search (bench/memory/rule-search.ts, hit-features.ts): a rule drops units as
 * the gate would (the first five hits left are shown), and is judged by the questions it answers
 * and the planted statements it shows; a question's head is the phrase its question word asks
 * about. Inputs made up for these tests.
 */
import { describe, expect, test } from "bun:test";
import { type FeatureQuestion, type FeatureUnit, questionShape } from "../../bench/memory/hit-features.ts";
import { judge } from "../../bench/memory/rule-search.ts";
import { queryGroups } from "../../src/memory/query.ts";

const unit = (score: number, answer = false, fact = false): FeatureUnit => ({ f: { score }, answer, fact, text: "" });

describe("rule search", () => {
  test("dropped units leave room for the next hits; answered and false recalls are counted per set", () => {
    const filler = [1, 2, 3, 4].map((i) => [unit(0.1 * i)]);
    const questions: FeatureQuestion[] = [
      { set: "s", id: "a", kind: "fact", query: "", hits: [...filler, [unit(0.5)], [unit(9, true)]] },
      { set: "s", id: "b", kind: "absent", query: "", hits: [[unit(0.2, false, true)], [unit(3)]] },
    ];
    expect(judge(questions, () => false).get("s")).toEqual({ answered: 0, falseRecalls: 1 });
    // Dropping the weak units brings the sixth hit (the answer) into the five, and takes the planted one out.
    expect(judge(questions, (u) => u.f.score! < 0.3).get("s")).toEqual({ answered: 1, falseRecalls: 0 });
  });

  test("a question's head: the phrase after what/which, the words after who, a keyword query's last word", () => {
    const shape = (q: string) => {
      const groups = queryGroups(q);
      const s = questionShape(q, groups);
      return { wh: s.wh, head: groups.filter((g) => s.head.has(g.group)).map((g) => g.word) };
    };
    expect(shape("which message broker does the billing service use")).toEqual({ wh: "which", head: ["message", "broker"] });
    expect(shape("who signs off the quarterly budget")).toEqual({ wh: "who", head: ["signs"] });
    expect(shape("nightly export retention")).toEqual({ wh: "keyword", head: ["retention"] });
    expect(shape("is there a staging database").wh).toBe("yesno");
  });
});
