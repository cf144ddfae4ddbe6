import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { charCount, deriveExcerpt, EXCERPT_MAX, plainText } from "./excerpt";

describe("plainText", () => {
  it.each([
    ["# Rates\n\nThe **Fed** _may_ cut.", "Rates The Fed may cut."],
    ["See [the minutes](https://example.com/m) and ![a chart](c.png).", "See the minutes and a chart."],
    ["> quoted *words*\n> more", "quoted words more"],
    ["- one\n- [x] two\n1. three", "one two three"],
    ["Before\n\n```ts\nconst hidden = 1;\n```\n\nAfter", "Before After"],
    ["Inline `code` stays, <b>html</b> goes<br/>", "Inline code stays, html goes"],
    ["a\n\n---\n\nb", "a b"],
    ["| a | b |\n|---|:-:|\n| 1 | 2 |", "a b 1 2"],
    ["snake_case and 2*3*4 stay", "snake_case and 2*3*4 stay"],
    ["~~old~~ new \\*literal\\*", "old new *literal*"],
    ["[ref]: https://example.com\nText [with][ref]", "Text with"],
    ["Autolink <https://example.com/x>", "Autolink https://example.com/x"],
    ["## Closed heading ##", "Closed heading"],
  ])("%j reads as %j", (markdown, text) => {
    expect(plainText(markdown)).toBe(text);
  });
});

describe("deriveExcerpt", () => {
  it("keeps a short text whole", () => {
    expect(deriveExcerpt("Short **post**.")).toBe("Short post.");
  });

  it("cuts a long text after a whole word and marks the cut", () => {
    const excerpt = deriveExcerpt(`${"word ".repeat(100)}end`);
    expect(charCount(excerpt)).toBeLessThanOrEqual(EXCERPT_MAX);
    expect(excerpt).toMatch(/word…$/);
  });

  it("cuts a single over-long word where it must", () => {
    expect(deriveExcerpt("x".repeat(500))).toBe(`${"x".repeat(EXCERPT_MAX - 1)}…`);
  });

  it("counts an emoji as one character and never splits it", () => {
    const excerpt = deriveExcerpt("😀".repeat(300));
    expect(charCount(excerpt)).toBe(EXCERPT_MAX);
    expect(excerpt).toBe(`${"😀".repeat(EXCERPT_MAX - 1)}…`);
  });

  it("is at most the limit, a prefix of the plain text, and ends on a word boundary", () => {
    const words = fc.array(fc.stringMatching(/^[a-zA-Z0-9*_#>[\]()`!-]{1,12}$/), { maxLength: 120 });
    fc.assert(
      fc.property(words, fc.constantFrom(" ", "\n", "\n\n"), (parts, separator) => {
        const markdown = parts.join(separator);
        const text = plainText(markdown);
        const excerpt = deriveExcerpt(markdown);
        expect(charCount(excerpt)).toBeLessThanOrEqual(EXCERPT_MAX);
        if (charCount(text) <= EXCERPT_MAX) {
          expect(excerpt).toBe(text);
          return;
        }
        const kept = excerpt.slice(0, -1);
        expect(excerpt.endsWith("…")).toBe(true);
        expect(text.startsWith(kept)).toBe(true);
        if (kept.includes(" ")) expect(text[kept.length]).toBe(" ");
      }),
    );
  });
});
