import { describe, expect, it } from "vitest";
import { gather } from "./gather";
import { ResearchFailedError, type ResearchProvider } from "./types";

const answering = (name: string, delayMs = 0): ResearchProvider => ({
  name,
  budgetMs: 1_000,
  search: async (question) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return [{ title: name, url: `https://${name}.test`, source: name, snippet: question }];
  },
});
const hanging = (name: string, budgetMs = 1_000): ResearchProvider => ({
  name,
  budgetMs,
  search: () => new Promise(() => {}),
});
const failing = (name: string): ResearchProvider => ({
  name,
  budgetMs: 1_000,
  search: async () => {
    throw new Error("down");
  },
});

describe("gathering from the providers", () => {
  it("asks every provider and keeps what each found", async () => {
    const gathered = await gather([answering("a"), answering("b", 5)], "q", { depth: "quick", deadlineMs: 500 });
    expect(gathered.sources.map((source) => source.source).sort()).toEqual(["a", "b"]);
    expect(gathered.unfinished).toEqual([]);
  });

  it("names a provider that is still working at the deadline and answers with the others", async () => {
    const gathered = await gather([answering("a"), hanging("slow")], "q", { depth: "quick", deadlineMs: 50 });
    expect(gathered.unfinished).toEqual(["slow"]);
    expect(gathered.sources).toHaveLength(1);
  });

  it("holds each provider to its own budget", async () => {
    const gathered = await gather([hanging("tight", 20), answering("a", 40)], "q", { depth: "quick", deadlineMs: 500 });
    expect(gathered.unfinished).toEqual(["tight"]);
    expect(gathered.sources).toHaveLength(1);
  });

  it("fails when every provider failed", async () => {
    await expect(gather([failing("x"), failing("y")], "q", { depth: "quick", deadlineMs: 100 })).rejects.toBeInstanceOf(
      ResearchFailedError,
    );
  });

  it("answers when one provider failed and another found something", async () => {
    const gathered = await gather([failing("x"), answering("a")], "q", { depth: "quick", deadlineMs: 100 });
    expect(gathered.failed).toEqual(["x"]);
    expect(gathered.sources).toHaveLength(1);
  });
});
