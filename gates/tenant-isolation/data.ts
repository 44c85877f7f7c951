/**
 * The tenant-isolation gate's database, the same in the child (which builds it in SQLite) and the parent
 * (which judges against it): tenants, a seeded invoice table, the probes' wire shapes.
 */
import type { Tagged } from "../../src/sandbox/tagged.js";

export const VICTIM = "tnt_victim";
export const ATTACKER = "tnt_attacker";
export const TENANTS = [VICTIM, ATTACKER, "tnt_globex", "tnt_initech"] as const;
const INVOICES_PER_TENANT = 4;

export interface Invoice {
  id: string;
  tenant_id: string;
  amount_cents: number;
  memo: string;
}

/**
 * A seeded database: ids and amounts differ per seed, so nothing can be hard-coded. The victim also owns an
 * id equal to one of the attacker's but for case (SQLite's `=` on TEXT is case-sensitive, `COLLATE NOCASE`
 * and `lower()` are not).
 */
export function seedInvoices(seed: number): Invoice[] {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
  const rows: Invoice[] = [];
  for (const t of TENANTS)
    for (let i = 0; i < INVOICES_PER_TENANT; i++)
      rows.push({
        id: `inv_${next().toString(16).padStart(8, "0")}${i}`,
        tenant_id: t,
        amount_cents: next() % 100_000,
        memo: `${t} invoice ${i}`,
      });
  // An id that collides case-insensitively: the victim owns the attacker's first id in capitals.
  const attackerFirst = rows.find((r) => r.tenant_id === ATTACKER) as Invoice;
  rows.push({
    id: attackerFirst.id.toUpperCase(),
    tenant_id: VICTIM,
    amount_cents: next() % 100_000,
    memo: `${VICTIM} invoice ${INVOICES_PER_TENANT}`,
  });
  return rows;
}

export type TenantProbe =
  /** `handler(ctx, id, db)` on the database of `seed` (sent tagged: a tenant may be missing or undefined). */
  | { kind: "call"; seed: number; ctx: unknown; id: unknown }
  /** The whole table of `seed`'s database, as it is now. */
  | { kind: "table"; seed: number };

export interface QueryRecord {
  /** The SQL text as the handler passed it (a non-string is described). */
  sql: string;
  sqlIsString: boolean;
  params: Tagged;
}

export type TenantObservation =
  | { queries: QueryRecord[]; outcome: { threw: string } | { value: Tagged } }
  | { rows: [string, string, number, string | null][] }
  | { tableError: string }
  | { notFunction: string };
