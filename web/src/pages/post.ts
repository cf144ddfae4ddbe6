// A journal post: its markdown rendered and sanitised, its sources, the tips its author received
// (confirmed on chain), and its comments and duels.
import { api, read } from "../api";
import { commentsSection } from "../comments";
import { failure, fill, h, loading } from "../dom";
import { usdc } from "../format";
import { href } from "../router";
import { byline, tagLinks } from "./journal";
import type { Page } from "./page";

export async function postPage(id: string): Promise<Page> {
  const [post, tips, { renderMarkdown }] = await Promise.all([
    read(api().GET("/api/blog/{id}", { params: { path: { id } } })),
    read(api().GET("/api/tips", { params: { query: { context: `blog:${id}`, limit: 1 } } })),
    // marked and DOMPurify are a chunk of their own, loaded with the first post.
    import("../markdown"),
  ]);
  const body = h("div", { class: "post-body" });
  body.append(renderMarkdown(post.body));
  const comments = h("div", null, loading("comments"));
  commentsSection({ type: "blog", id }).then(
    (section) => fill(comments, section),
    (error) => fill(comments, failure(error)),
  );
  const content = h(
    "article",
    { class: "post", "data-post": post.id },
    h("p", { class: "crumbs" }, h("a", { href: href({ page: "journal" }) }, "Journal")),
    h("h1", { tabindex: -1 }, post.title),
    byline(post),
    tagLinks(post.tags),
    h(
      "p",
      { class: "tip-total" },
      `Tipped ${usdc(tips.tipsTotal)} by ${tips.count} ${tips.count === 1 ? "tip" : "tips"}`,
    ),
    body,
    post.sources.length
      ? h(
          "section",
          { class: "sources", "aria-labelledby": "sources-title" },
          h("h2", { id: "sources-title" }, "Sources"),
          h(
            "ul",
            null,
            ...post.sources.map((source) =>
              h(
                "li",
                null,
                /^https?:\/\//.test(source.url)
                  ? h("a", { href: source.url, rel: "noopener noreferrer nofollow", target: "_blank" }, source.title)
                  : source.title,
                ` (${source.source})`,
              ),
            ),
          ),
        )
      : null,
    comments,
  );
  return { title: post.title, content };
}
