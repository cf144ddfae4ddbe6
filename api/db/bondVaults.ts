// Which vault holds a bond: the registry numbers bonds across every vault, so a bond id alone does
// not say where to look on chain; the indexed `bond` table does. Everything else about the bond is
// read from the vault itself.
import type { Db } from "./pool";

export function bondVaultQueries(db: Db, views: string) {
  const sql = `SELECT vault, agent FROM "${views}".bond WHERE id = $1`;
  return {
    /** The vault of the bond and its agent (lowercase addresses), or undefined when no such bond is indexed (yet). */
    async vaultOf(bondId: bigint): Promise<{ vault: string; agent: string } | undefined> {
      const { rows } = await db.query({ name: "bond_vault", text: sql, values: [bondId.toString()] });
      return rows[0];
    },
  };
}
