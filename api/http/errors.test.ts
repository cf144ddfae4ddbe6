import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { validationError } from "./errors";

const issuesOf = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  if (result.success) throw new Error("expected a failure");
  return result.error.issues;
};

describe("validationError", () => {
  const Body = z.strictObject({ amount: z.number().positive(), maxPrice: z.number().optional() });

  it("is a 400 invalid_parameter naming the first offending field", () => {
    const error = validationError(issuesOf(Body, { amount: -1 }));
    expect(error.status).toBe(400);
    expect(error.code).toBe("invalid_parameter");
    expect(error.details).toMatchObject({ parameter: "amount" });
    expect(error.message).toMatch(/^amount: /);
  });

  it("names an unknown field, so that a misspelt one is refused rather than ignored", () => {
    const error = validationError(issuesOf(Body, { amount: 1, maxprice: 0.5 }));
    expect(error.details).toMatchObject({ parameter: "maxprice" });
    expect(error.message).toBe("maxprice: not a field of this request");
  });

  it("names nested fields by their path and a whole-body problem as body", () => {
    expect(
      validationError(issuesOf(z.object({ a: z.object({ b: z.string() }) }), { a: { b: 1 } })).details,
    ).toMatchObject({
      parameter: "a.b",
    });
    expect(validationError(issuesOf(Body, "text")).details).toMatchObject({ parameter: "body" });
  });
});
