import pg from "pg";

// Ponder stores bigint arrays as numeric(78)[], which pg would parse as floats; read them as
// exact bigints, as Ponder does.
const NUMERIC_ARRAY = 1231 as unknown as Parameters<typeof pg.types.setTypeParser>[0];
const INT8_ARRAY = 1016 as unknown as Parameters<typeof pg.types.setTypeParser>[0];
pg.types.setTypeParser(NUMERIC_ARRAY, pg.types.getTypeParser(INT8_ARRAY));

export type Db = pg.Pool;

export function createPool(databaseUrl: string, max: number): Db {
  return new pg.Pool({ connectionString: databaseUrl, max, application_name: "prediction-market-api" });
}
