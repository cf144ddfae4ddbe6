import pino from "pino";
import { describe, expect, it } from "vitest";
import { startHeartbeat, THIS_PROCESS } from "./instances";
import type { Db } from "./pool";

/** Records the statements a heartbeat sends, as (verb, id). */
const recordingDb = () => {
  const statements: [string, unknown][] = [];
  const db = {
    query: async (text: string, values: unknown[]) => {
      statements.push([text.split(" ")[0]!, values[0]]);
      return { rows: [], rowCount: 1 };
    },
  } as unknown as Db;
  return { db, statements };
};

describe("startHeartbeat", () => {
  it("registers the process at once and removes its row when it stops", async () => {
    const { db, statements } = recordingDb();
    const heartbeat = await startHeartbeat({ pool: db, logger: pino({ level: "silent" }) });
    expect(heartbeat.id).toBe(THIS_PROCESS);
    await heartbeat.stop();
    expect(statements).toEqual([
      ["INSERT", THIS_PROCESS],
      ["DELETE", THIS_PROCESS],
    ]);
  });

  it("keeps the process's row while another service of the same process still runs", async () => {
    const { db, statements } = recordingDb();
    const logger = pino({ level: "silent" });
    const first = await startHeartbeat({ pool: db, logger });
    const second = await startHeartbeat({ pool: db, logger });
    await first.stop();
    expect(statements.filter(([verb]) => verb === "DELETE")).toEqual([]);
    await second.stop();
    expect(statements.filter(([verb]) => verb === "DELETE")).toEqual([["DELETE", THIS_PROCESS]]);
  });
});
