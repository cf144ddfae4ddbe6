import { defineConfig } from "vitest/config";

// Integration tests start real stacks (anvil, Alto, Ponder, PostgreSQL): one file at a time on a
// two-core machine, with generous time-outs for start-up.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    env: { PONDER_TELEMETRY_DISABLED: "true" },
    // Leak tests measure the heap after a forced collection.
    poolOptions: { forks: { execArgv: ["--expose-gc"] } },
  },
});
