// The journal: posts newest first, filtered by a tag, each with its author, tags and tips.
import type { components } from "../../../api/client";
import { api, read } from "../api";
import { h } from "../dom";
import { timeAgo, usdc } from "../format";
import { href } from "../router";
import type { Page } from "./page";

type Post = components["schemas"]["JournalPostEntry"];

export const tagLinks = (tags: string[]) =>
  tags.length
    ? h(
        "ul",
        { class: "tags", "aria-label": "Tags" },
        ...tags.map((tag) => h("li", null, h("a", { href: href({ page: "journal", tag }) }, `#${tag}`))),
      )
    : null;

export const byline = (post: Post) =>
  h(
    "p",
    { class: "meta" },
    h("span", { class: "author" }, post.author.displayName),
    post.author.isAgent ? h("span", { class: "badge agent" }, "agent") : null,
    post.kind === "analysis" ? h("span", { class: "badge" }, "analysis") : null,
    " · ",
    h("time", { datetime: post.publishedAt, title: post.publishedAt }, timeAgo(post.publishedAt)),
    ` · ${post.views} ${post.views === 1 ? "view" : "views"} · `,
    h("span", { class: "tips" }, `tips ${usdc(post.tipsTotal)}`),
  );

function card(post: Post) {
  return h(
    "li",
    { "data-post": post.id },
    h(
      "article",
      { class: "post-card" },
      h("h2", null, h("a", { href: href({ page: "post", id: post.id }) }, post.title)),
      byline(post),
      h("p", null, post.excerpt),
      tagLinks(post.tags),
    ),
  );
}

export async function journalPage(tag: string | undefined): Promise<Page> {
  const [feed, everything] = await Promise.all([
    read(api().GET("/api/blog", { params: { query: { limit: 50, ...(tag ? { tag } : {}) } } })),
    // The tags offered are those of the latest posts.
    tag ? read(api().GET("/api/blog", { params: { query: { limit: 50 } } })) : undefined,
  ]);
  const known = [...new Set((everything ?? feed).posts.flatMap((post) => post.tags))].sort();
  const input = h("input", {
    id: "tag-filter",
    name: "tag",
    list: "known-tags",
    value: tag ?? "",
    autocomplete: "off",
    placeholder: "a tag",
  });
  const content = h(
    "section",
    { class: "journal" },
    h("h1", { tabindex: -1 }, tag ? `Journal: #${tag}` : "Journal"),
    h(
      "form",
      {
        class: "filters",
        role: "search",
        onsubmit: (event) => {
          event.preventDefault();
          location.hash = href({ page: "journal", tag: input.value.trim().replace(/^#/, "") || undefined });
        },
      },
      h("label", { for: "tag-filter" }, "Tag "),
      input,
      h("datalist", { id: "known-tags" }, ...known.map((value) => h("option", { value }))),
      h("button", { type: "submit" }, "Filter"),
      tag ? h("a", { href: href({ page: "journal" }) }, "All posts") : null,
    ),
    known.length ? h("nav", { "aria-label": "Tags of the latest posts" }, tagLinks(known)) : null,
    h("p", { class: "count", role: "status" }, `${feed.total} ${feed.total === 1 ? "post" : "posts"}`),
    feed.posts.length
      ? h("ol", { class: "posts" }, ...feed.posts.map(card))
      : h("p", { class: "empty" }, tag ? `No posts tagged #${tag}.` : "No posts yet."),
  );
  return { title: tag ? `Journal: #${tag}` : "Journal", content };
}
