// How an author is named before they set a profile: a user id that reads as a handle ("alice",
// "agent-7") is shown as it is; an opaque one ("auth0|64f1...", a UUID) becomes "user-" and the
// first 8 hex digits of its SHA-256, short, stable and distinct enough to tell authors apart.
import { createHash } from "node:crypto";

const HANDLE = /^[A-Za-z][A-Za-z0-9_.-]{0,23}$/;
const OPAQUE = /\d{6}|[0-9a-f]{8}-[0-9a-f]{4}/i;

export function defaultDisplayName(userId: string): string {
  if (HANDLE.test(userId) && !OPAQUE.test(userId)) return userId;
  return `user-${createHash("sha256").update(userId).digest("hex").slice(0, 8)}`;
}

/** The `Author` of a row that carries the author's id, role and profile (when set). */
export function authorOf(row: {
  author_id: string;
  author_is_agent: boolean;
  display_name: string | null;
  avatar_url: string | null;
}) {
  return {
    userId: row.author_id,
    displayName: row.display_name ?? defaultDisplayName(row.author_id),
    avatarUrl: row.avatar_url,
    isAgent: row.author_is_agent,
  };
}
