import { describe, expect, it } from "vitest";
import { buildBrief, citeFindings, contentWords } from "./brief";
import type { Source } from "./types";

const source = (snippet: string, title = "A market", url = `https://example.test/${snippet.length}`): Source => ({
  title,
  url,
  source: "corpus",
  snippet,
});

describe("the research brief", () => {
  it("keeps the words that carry meaning", () => {
    expect(contentWords("Will the ETH price be above 5000 in June?")).toEqual([
      "eth",
      "price",
      "above",
      "5000",
      "june",
    ]);
  });

  it("cites for each finding every source that supports it", () => {
    const a = source("The ETH price market trades at 62% for Yes. Volume is 1,200 USDC.", "ETH above 5000", "u:a");
    const b = source("Traders bought Yes on the ETH price market all week.", "Journal", "u:b");
    const brief = buildBrief("ETH price market", [a, b], "standard");
    expect(brief.findings.length).toBeGreaterThan(0);
    for (const finding of brief.findings) expect(finding.sources.length).toBeGreaterThan(0);
    expect(brief.findings[0]!.sources.map((s) => s.url)).toContain("u:a");
    expect(brief.summary).toContain("ETH price market");
  });

  it("drops a finding that no source supports", () => {
    const findings = citeFindings(
      ["The moon is made of cheese and orbits Neptune.", "The ETH market trades at 62% for Yes."],
      [source("The ETH market trades at 62% for Yes today.")],
    );
    expect(findings.map((finding) => finding.text)).toEqual(["The ETH market trades at 62% for Yes."]);
  });

  it("states each finding once", () => {
    const s = source("Rain is likely in Paris tomorrow.");
    expect(citeFindings(["Rain is likely in Paris tomorrow.", "rain is likely in Paris tomorrow!"], [s])).toHaveLength(
      1,
    );
  });

  it("says so when nothing speaks to the question, with no findings", () => {
    const brief = buildBrief("quantum gravity", [source("Bitcoin trades sideways this week.")], "quick");
    expect(brief).toEqual({ summary: 'No source found speaks to "quantum gravity".', findings: [] });
  });

  it("gives at most three findings when quick and six when standard", () => {
    const many = Array.from({ length: 10 }, (_, i) =>
      source(`Solar output rose ${i + 10} percent in region ${100 + i}.`, `Solar ${i}`, `u:${i}`),
    );
    expect(buildBrief("solar output", many, "quick").findings).toHaveLength(3);
    expect(buildBrief("solar output", many, "standard").findings).toHaveLength(6);
  });
});
