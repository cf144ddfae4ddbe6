// The brief: a summary and key findings, each citing the sources that support it. Findings are
// sentences of the sources that speak to the question; a finding that no source supports (its
// words found in none of them) is dropped rather than served uncited.
import type { Depth, Source } from "./types";

export type Finding = { text: string; sources: Source[] };
export type Brief = { summary: string; findings: Finding[] };

const FINDINGS = { quick: 3, standard: 6 } as const satisfies Record<Depth, number>;
const MAX_FINDING_CHARS = 300;
/** Share of a finding's words a source must hold to support it. */
const SUPPORT = 0.6;
const STOPWORDS = new Set(
  "the and for are but not you all any can had her was one our out has his how its may new now old see two who did get let put say she too use what when will with this that from they have been were which their there would could should about into than then them these those does where while whom whose your more most much such only also very just over under after before between".split(
    " ",
  ),
);

/** The lowercase words of `text` that carry meaning (three letters or more, no stopwords). */
export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((word) => !STOPWORDS.has(word));
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length >= 12);
}

/** True when `source` holds enough of the finding's words to back it. */
export function supports(source: Source, finding: string): boolean {
  const words = new Set(contentWords(finding));
  if (words.size === 0) return false;
  const held = new Set(contentWords(`${source.title} ${source.snippet}`));
  let shared = 0;
  for (const word of words) if (held.has(word)) shared++;
  return shared / words.size >= SUPPORT;
}

const clip = (text: string) => (text.length <= MAX_FINDING_CHARS ? text : `${text.slice(0, MAX_FINDING_CHARS - 1)}…`);

/** Findings from candidate statements: each keeps the sources that support it; unsupported ones go. */
export function citeFindings(candidates: readonly string[], sources: readonly Source[]): Finding[] {
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const candidate of candidates) {
    const text = clip(candidate);
    const key = contentWords(text).join(" ");
    if (!key || seen.has(key)) continue;
    seen.add(key);
    const citing = sources.filter((source) => supports(source, text));
    if (citing.length > 0) findings.push({ text, sources: citing });
  }
  return findings;
}

export function buildBrief(question: string, sources: readonly Source[], depth: Depth): Brief {
  const terms = new Set(contentWords(question));
  const relevance = (text: string) => contentWords(text).filter((word) => terms.has(word)).length;
  const candidates = sources
    .flatMap((source, order) =>
      sentences(source.snippet).map((sentence) => ({
        sentence,
        order,
        score: relevance(`${source.title} ${sentence}`),
      })),
    )
    .filter((candidate) => candidate.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map((candidate) => candidate.sentence);
  const findings = citeFindings(candidates, sources).slice(0, FINDINGS[depth]);
  if (findings.length === 0) return { summary: `No source found speaks to "${question}".`, findings: [] };
  const cited = new Set(findings.flatMap((finding) => finding.sources.map((source) => source.url)));
  const providers = [...new Set(findings.flatMap((finding) => finding.sources.map((source) => source.source)))];
  return {
    summary: `${findings.length} finding${findings.length === 1 ? "" : "s"} from ${cited.size} source${cited.size === 1 ? "" : "s"} (${providers.join(", ")}) on "${question}". ${findings[0]!.text}`,
    findings,
  };
}
