// Asks every provider at once, each within its own budget and all within the research deadline:
// what has come by then is the material, and the providers that had not answered are named.
import { type Depth, ResearchFailedError, type ResearchProvider, type Source } from "./types";

export type Gathered = {
  sources: Source[];
  /** Providers still working at their budget or the deadline. */
  unfinished: string[];
  /** Providers that answered with an error. */
  failed: string[];
};

type Outcome = { name: string } & ({ kind: "done"; sources: Source[] } | { kind: "late" } | { kind: "failed" });

export async function gather(
  providers: readonly ResearchProvider[],
  question: string,
  options: { depth: Depth; deadlineMs: number; onProviderError?: (name: string, error: unknown) => void },
): Promise<Gathered> {
  const outcomes = await Promise.all(
    providers.map(async (provider): Promise<Outcome> => {
      const abort = new AbortController();
      const budget = Math.min(provider.budgetMs, options.deadlineMs);
      let timer: NodeJS.Timeout | undefined;
      // The provider is abandoned at its budget even when it ignores the signal.
      const late = new Promise<Outcome>((resolve) => {
        timer = setTimeout(() => {
          abort.abort(new Error(`${provider.name} took longer than ${budget} ms`));
          resolve({ name: provider.name, kind: "late" });
        }, budget);
      });
      const answer = provider.search(question, { depth: options.depth, signal: abort.signal }).then(
        (sources): Outcome => ({ name: provider.name, kind: "done", sources }),
        (error: unknown): Outcome => {
          if (abort.signal.aborted) return { name: provider.name, kind: "late" };
          options.onProviderError?.(provider.name, error);
          return { name: provider.name, kind: "failed" };
        },
      );
      try {
        return await Promise.race([answer, late]);
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const unfinished = outcomes.filter((outcome) => outcome.kind === "late").map((outcome) => outcome.name);
  const failed = outcomes.filter((outcome) => outcome.kind === "failed").map((outcome) => outcome.name);
  if (providers.length > 0 && failed.length === providers.length)
    throw new ResearchFailedError(`every research provider failed: ${failed.join(", ")}`);
  return {
    sources: outcomes.flatMap((outcome) => (outcome.kind === "done" ? outcome.sources : [])),
    unfinished,
    failed,
  };
}
