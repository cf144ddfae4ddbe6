// One interface for every source of research: the service's own corpus and any external search.

export type Depth = "quick" | "standard";

/** A document a provider found: what a finding may cite. */
export type Source = {
  title: string;
  url: string;
  /** The provider's name (`corpus`, `searxng`). */
  source: string;
  snippet: string;
};

export type ResearchProvider = {
  name: string;
  /** How long this provider may take; past it (or the research deadline) it counts as unfinished. */
  budgetMs: number;
  search(question: string, options: { depth: Depth; signal: AbortSignal }): Promise<Source[]>;
};

/** Every provider failed: nothing to answer with, so nothing may be charged. */
export class ResearchFailedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ResearchFailedError";
  }
}
