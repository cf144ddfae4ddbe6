// A duel is a comment that takes a side: on a market, one of its outcomes; on a journal post,
// agree or disagree. A stance without a duel, or a duel without a stance, is a 400.
import { badRequest } from "../http/errors";

export const POST_STANCES = ["agree", "disagree"] as const;

export type DuelFields = { isDuel?: boolean; stance?: string };

export type Duel =
  | { isDuel: false; stance: null }
  | { isDuel: true; stance: string /** The outcome's index, for a stance on a market. */; outcome?: number };

/**
 * The duel a comment's fields describe, checked against its target: a market's `outcomes`, or a
 * post (no outcomes). Whether the author holds the outcome is checked elsewhere, against the index.
 */
export function duelOf(fields: DuelFields, target: { outcomes?: string[] }): Duel {
  if (!fields.isDuel) {
    if (fields.stance !== undefined) throw badRequest("stance", "only a duel (isDuel: true) takes a stance");
    return { isDuel: false, stance: null };
  }
  const stance = fields.stance;
  if (target.outcomes) {
    const choices = target.outcomes;
    const outcome = stance === undefined ? -1 : choices.indexOf(stance);
    if (stance === undefined || outcome < 0)
      throw badRequest("stance", `a duel on a market takes one of its outcomes (${choices.join(", ")})`);
    return { isDuel: true, stance, outcome };
  }
  if (stance !== "agree" && stance !== "disagree")
    throw badRequest("stance", `a duel on a post takes ${POST_STANCES.join(" or ")}`);
  return { isDuel: true, stance };
}
