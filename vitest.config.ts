import { defineConfig } from "vitest/config";

// Two projects: `unit` holds the tests of pure code, which sit beside that code and need nothing
// running; `stack` holds the suites in test/ that start real stacks (anvil, Alto, Ponder,
// PostgreSQL), one file at a time on a two-core machine, with generous time-outs for start-up.
export default defineConfig({
  test: {
    env: { PONDER_TELEMETRY_DISABLED: "true" },
    // Stack files run one at a time (each starts a stack); a global option in vitest 3.
    fileParallelism: false,
    // Leak tests (stack project) measure the heap after a forced collection.
    poolOptions: { forks: { execArgv: ["--expose-gc"] } },
    projects: [
      {
        test: {
          name: "unit",
          include: ["{api,src,scripts,bench,agents,web}/**/*.test.ts", "*.test.ts"],
          env: { PONDER_TELEMETRY_DISABLED: "true" },
        },
      },
      {
        test: {
          name: "stack",
          include: ["test/**/*.test.ts"],
          env: { PONDER_TELEMETRY_DISABLED: "true" },
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
