// What a tip is for: a context `blog:<post id>` names a journal post, the only kind tipped so far.
import { z } from "@hono/zod-openapi";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** A tip's context as requests send it; the post id is a UUID. */
export const TipContext = z
  .string()
  .regex(new RegExp(`^blog:${UUID}$`, "i"), "must be blog:<post id>")
  .openapi({ example: "blog:3f1c2a4e-8d2b-4c61-9a3e-5b7d0e1f2a3b" });

/** The post a valid context names. */
export const postIdOf = (context: string): string => context.slice("blog:".length).toLowerCase();

/** The context of a post's tips. */
export const contextOf = (postId: string): string => `blog:${postId}`;
