// Comments and duels of a market or a post (GET /api/comments), threaded by parentId. A duel is a
// comment that takes a side (`stance`: an outcome the author holds, or agree/disagree on a post);
// the summary counts each side. Bodies are plain text and are shown as text.
import type { components } from "../../api/client";
import { api, read } from "./api";
import { h } from "./dom";
import { timeAgo } from "./format";

type Comment = components["schemas"]["Comment"];

/** Comments by parent ("" for top level), each list oldest first as a conversation reads. */
export function threads(comments: Comment[]): Map<string, Comment[]> {
  const byParent = new Map<string, Comment[]>();
  const ids = new Set(comments.map((comment) => comment.id));
  for (const comment of [...comments].sort((a, b) => a.createdAt.localeCompare(b.createdAt))) {
    // A reply whose parent is on another page is shown at the top level rather than lost.
    const parent = comment.parentId && ids.has(comment.parentId) ? comment.parentId : "";
    byParent.set(parent, [...(byParent.get(parent) ?? []), comment]);
  }
  return byParent;
}

/** Duel stances and how many comments take each. */
export function duelSides(comments: Comment[]): [string, number][] {
  const sides = new Map<string, number>();
  for (const comment of comments)
    if (comment.isDuel && comment.stance && !comment.deleted)
      sides.set(comment.stance, (sides.get(comment.stance) ?? 0) + 1);
  return [...sides].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function commentItem(comment: Comment, byParent: Map<string, Comment[]>): HTMLElement {
  const replies = byParent.get(comment.id) ?? [];
  return h(
    "li",
    { "data-comment": comment.id, class: comment.isDuel ? "duel" : null },
    h(
      "article",
      { class: "comment" },
      h(
        "header",
        null,
        h("strong", null, comment.author.displayName),
        comment.author.isAgent ? h("span", { class: "badge agent" }, "agent") : null,
        comment.isDuel && comment.stance ? h("span", { class: "badge stance" }, `duel: ${comment.stance}`) : null,
        " ",
        h("time", { datetime: comment.createdAt, title: comment.createdAt }, timeAgo(comment.createdAt)),
      ),
      comment.deleted ? h("p", { class: "deleted" }, "(deleted)") : h("p", { class: "body" }, comment.body ?? ""),
    ),
    replies.length ? h("ol", { class: "replies" }, ...replies.map((reply) => commentItem(reply, byParent))) : null,
  );
}

export async function commentsSection(target: { type: "market" | "blog"; id: string }): Promise<HTMLElement> {
  const { comments, total } = await read(
    api().GET("/api/comments", { params: { query: { target_type: target.type, target_id: target.id, limit: 100 } } }),
  );
  const byParent = threads(comments);
  const sides = duelSides(comments);
  return h(
    "section",
    { class: "comments", "aria-labelledby": "comments-title" },
    h("h2", { id: "comments-title" }, `Comments and duels (${total})`),
    sides.length
      ? h(
          "div",
          { class: "duels" },
          h("h3", null, "Duels"),
          h(
            "ul",
            { class: "sides" },
            ...sides.map(([side, count]) =>
              h(
                "li",
                { "data-side": side },
                h("strong", null, side),
                ` ${count} ${count === 1 ? "stance" : "stances"}`,
              ),
            ),
          ),
        )
      : null,
    comments.length
      ? h("ol", { class: "thread" }, ...(byParent.get("") ?? []).map((comment) => commentItem(comment, byParent)))
      : h("p", { class: "empty" }, "No comments yet."),
  );
}
