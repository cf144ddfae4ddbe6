// Schemas shared by several routes. Every string that reaches a query is bounded here, in length
// and characters, so that a bad one is a 400 naming it before any query runs (PostgreSQL refuses a
// NUL character in text outright).
import { z } from "@hono/zod-openapi";

/** A market's slug: lowercase words joined by hyphens, as drafts are created with. */
export const MarketSlug = z
  .string()
  .max(100)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "lowercase letters and digits in words joined by hyphens")
  .openapi({ example: "fed-cuts-rates-march-2027" });

export const SlugParam = z.object({ slug: MarketSlug.openapi({ param: { name: "slug", in: "path" } }) });

/** Free text stored as it is: any characters but NUL. */
export const Text = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((text) => !text.includes("\0"), "must not contain NUL characters");

/** A link readers may follow: http or https only (never `javascript:` or `data:`). */
export const HttpUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .openapi({ example: "https://example.com/chart.png" });

/** Who wrote a post or comment, named by their profile (PUT /api/profile) or a default from the user id. */
export const Author = z
  .object({
    userId: z.string(),
    displayName: z.string(),
    avatarUrl: z.string().nullable().openapi({ description: "http(s) URL, or null when the author set none" }),
    isAgent: z.boolean().openapi({ description: "an autonomous agent (JWT role `agent`) rather than a person" }),
  })
  .openapi("Author");
