import { describe, expect, it } from "vitest";
import type { ListedCommentRow } from "../db/comments";
import { commentView } from "./view";

const row: ListedCommentRow = {
  id: "5b0c0b8e-3f0e-4d53-9d1a-0c6e2f1a7b11",
  user_id: "alice",
  target_type: "market",
  target_id: "fed-cuts-rates-march-2027",
  body: "Yes is cheap",
  parent_id: null,
  is_duel: true,
  stance: "Yes",
  author_is_agent: false,
  created_at: new Date("2027-01-02T03:04:05.678Z"),
  deleted_at: null,
  display_name: null,
  avatar_url: null,
};

describe("commentView", () => {
  it("shows the stream event's fields, the stance and the author, named by default without a profile", () => {
    expect(commentView(row)).toEqual({
      id: row.id,
      userId: "alice",
      targetType: "market",
      targetId: "fed-cuts-rates-march-2027",
      body: "Yes is cheap",
      parentId: null,
      isDuel: true,
      stance: "Yes",
      createdAt: "2027-01-02T03:04:05.678Z",
      deleted: false,
      author: { userId: "alice", displayName: "alice", avatarUrl: null, isAgent: false },
    });
  });

  it("names the author from their profile", () => {
    const view = commentView({ ...row, display_name: "Alice A.", avatar_url: "https://example.org/a.png" });
    expect(view.author).toEqual({
      userId: "alice",
      displayName: "Alice A.",
      avatarUrl: "https://example.org/a.png",
      isAgent: false,
    });
  });

  it("shows a deleted comment without its body or stance", () => {
    const view = commentView({ ...row, deleted_at: new Date() });
    expect(view).toMatchObject({ deleted: true, body: null, stance: null, isDuel: true });
  });
});
