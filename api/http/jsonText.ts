// A 200 JSON answer whose text the route wrote itself, typed as the body its schema declares, so that
// the route keeps its declared response type. For bodies whose hand-written serialization measurably
// beats JSON.stringify of objects (the price history: api/priceSeries.ts, priceHistoryJson).
import type { Context, TypedResponse } from "hono";

export const jsonText = <Body>(c: Context, text: string) =>
  c.body(text, 200, { "content-type": "application/json" }) as unknown as TypedResponse<Body, 200, "json">;
