import { show } from "../shared/property.js";
import { TENANTS } from "./data.js";

/**
 * Strings anywhere in a returned value that belong to a tenant other than `tenant`: another tenant's invoice
 * id, or text naming another tenant (its `tenant_id`, a memo). The requested id itself is not counted (a
 * handler may echo it), nor text containing it.
 */
export function foreignData(
  value: unknown,
  tenant: unknown,
  id: string,
  owner: ReadonlyMap<string, string>,
): string[] {
  const found: string[] = [];
  const seen = new Set<object>();
  const visit = (v: unknown, depth: number): void => {
    if (found.length >= 3 || depth > 32) return;
    if (typeof v === "string") {
      if (v === id) return;
      const o = owner.get(v);
      if (o !== undefined) {
        if (o !== tenant) found.push(`${show(v)} is ${o}'s invoice`);
        return;
      }
      if (id.length > 0 && v.includes(id)) return;
      const other = TENANTS.find((t) => t !== tenant && v.includes(t));
      if (other) found.push(`${show(v)} names ${other}`);
      return;
    }
    if (v === null || typeof v !== "object" || seen.has(v)) return;
    seen.add(v);
    for (const x of Array.isArray(v) ? v : Object.values(v)) visit(x, depth + 1);
  };
  visit(value, 0);
  return found;
}
