// Authors' profiles in schema `api`: the name and picture shown beside their posts and comments.
import type { Db } from "./pool";

export type ProfileRow = {
  user_id: string;
  display_name: string;
  avatar_url: string | null;
  is_agent: boolean;
};

export function profileQueries(db: Db) {
  return {
    async get(userId: string): Promise<ProfileRow | undefined> {
      const { rows } = await db.query(
        "SELECT user_id, display_name, avatar_url, is_agent FROM api.profile WHERE user_id = $1",
        [userId],
      );
      return rows[0];
    },

    /** Sets the whole profile; cached feeds that show the name are cleared. */
    async put(profile: { userId: string; displayName: string; avatarUrl: string | null; isAgent: boolean }) {
      const { rows } = await db.query(
        `INSERT INTO api.profile (user_id, display_name, avatar_url, is_agent) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id) DO UPDATE
           SET display_name = EXCLUDED.display_name, avatar_url = EXCLUDED.avatar_url,
               is_agent = EXCLUDED.is_agent, updated_at = now()
         RETURNING user_id, display_name, avatar_url, is_agent`,
        [profile.userId, profile.displayName, profile.avatarUrl, profile.isAgent],
      );
      await db.query("SELECT pg_notify('api_changes', 'profile')");
      return rows[0] as ProfileRow;
    },
  };
}
