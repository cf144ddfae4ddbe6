import { describe, expect, it } from "vitest";
import { oneAtATime } from "./oneAtATime";

describe("oneAtATime", () => {
  it("runs sends one after another, in the order they came", async () => {
    const serial = oneAtATime();
    const events: string[] = [];
    const send = (name: string, ms: number) =>
      serial(async () => {
        events.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        events.push(`end ${name}`);
        return name;
      });
    expect(await Promise.all([send("a", 20), send("b", 1), send("c", 5)])).toEqual(["a", "b", "c"]);
    expect(events).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
  });

  it("goes on after a send that failed, which fails alone", async () => {
    const serial = oneAtATime();
    const failed = serial(async () => {
      throw new Error("nonce too low");
    });
    const next = serial(async () => "sent");
    await expect(failed).rejects.toThrow("nonce too low");
    expect(await next).toBe("sent");
  });
});
