// One research: every provider asked in parallel until the deadline, then the brief from what came.
import { type Brief, buildBrief } from "./brief";
import { gather } from "./gather";
import type { Depth, ResearchProvider } from "./types";

export type ResearchResult = Brief & {
  question: string;
  depth: Depth;
  /** True when some provider had not finished by its budget or the deadline. */
  partial: boolean;
  unfinished: string[];
  providers: string[];
};

export async function research(
  providers: readonly ResearchProvider[],
  question: string,
  options: { depth: Depth; deadlineMs: number; onProviderError?: (name: string, error: unknown) => void },
): Promise<ResearchResult> {
  const gathered = await gather(providers, question, options);
  return {
    question,
    depth: options.depth,
    ...buildBrief(question, gathered.sources, options.depth),
    partial: gathered.unfinished.length > 0,
    unfinished: gathered.unfinished,
    providers: providers.map((provider) => provider.name),
  };
}
