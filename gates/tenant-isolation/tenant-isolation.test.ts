import { describe, expect, it } from "vitest";
import { type Reference, verdictProblems } from "../shared/reference-testing.js";
import { ATTACKER, VICTIM } from "./data.js";
import { foreignData } from "./foreign-data.js";
import { findInterpolatedSql } from "./sql-ast.js";

const references: Reference[] = [
  { file: "good-scoped.ts" },
  { file: "good-check-in-code.js" },
  { file: "bad-unscoped.ts", fails: ["cross-tenant", "random-access"] },
  { file: "bad-template.js", fails: ["injection", "sql-text", "static-sql"] },
  { file: "bad-concat-variable.js", fails: ["injection", "sql-text", "static-sql"] },
  { file: "bad-escaped-interpolation.ts", fails: ["sql-text", "static-sql"] },
  // #20: a null tenant through COALESCE, a second unscoped query, ids and tenants compared without case.
  { file: "bad-coalesce-tenant.js", fails: ["missing-tenant", "returned-rows"] },
  { file: "bad-related-unscoped.ts", fails: ["returned-rows"] },
  { file: "bad-nocase-ownership.js", fails: ["cross-tenant", "returned-rows"] },
  { file: "bad-nocase-tenant.js", fails: ["tenant-case", "returned-rows"] },
];

describe("tenant-isolation gate on reference modules (20 seeds for good ones, 5 for bad ones)", () => {
  it.each(references)("$file → fails $fails", async (ref) => {
    expect(await verdictProblems("tenant-isolation", ref)).toBe("");
  });
});

describe("static SQL check", () => {
  const find = (src: string) => findInterpolatedSql(src, "m.ts");
  it("flags interpolation reaching a query call, directly or through a variable", () => {
    expect(find("db.query(`SELECT * FROM t WHERE id = ${id}`)")).toMatchObject([{ line: 1, column: 10 }]);
    expect(find("const q = 'SELECT ' + cols;\nawait db.query(q, [])")).toMatchObject([{ line: 2 }]);
    expect(find("let q = 'a';\nq += id;\nconn.execute(q)")).toHaveLength(1);
    expect(find("db.query('SELECT 1'.concat(x))")).toHaveLength(1);
  });
  it("does not flag bound parameters, constant templates or tagged templates", () => {
    expect(find("db.query('SELECT * FROM t WHERE id = ?', [id])")).toEqual([]);
    expect(find("db.query(`SELECT * FROM t WHERE id = ?`, [id])")).toEqual([]);
    expect(find("db.query(sql`SELECT * FROM t WHERE id = ${id}`)")).toEqual([]);
    expect(find("const n = a + b; db.query('SELECT ?', [n])")).toEqual([]);
  });
});

describe("foreignData (every returned row checked for tenant)", () => {
  const owner = new Map([
    ["inv_a", ATTACKER],
    ["inv_v", VICTIM],
  ]);
  it("finds another tenant's ids and names anywhere in the value, beyond the first row", () => {
    const own = { id: "inv_a", tenant_id: ATTACKER };
    expect(foreignData({ ...own, related: [{ id: "inv_v" }] }, ATTACKER, "inv_a", owner)).toHaveLength(1);
    expect(foreignData([own, { memo: `${VICTIM} invoice 2` }], ATTACKER, "inv_a", owner)).toHaveLength(1);
    // No tenant: the requested id is not counted, the tenant it names is.
    expect(foreignData({ id: "inv_v", tenant_id: VICTIM }, null, "inv_v", owner)).toEqual([
      `"${VICTIM}" names ${VICTIM}`,
    ]);
  });
  it("accepts own rows and an echo of the requested id", () => {
    expect(
      foreignData({ id: "inv_a", tenant_id: ATTACKER, related: ["inv_a"] }, ATTACKER, "inv_a", owner),
    ).toEqual([]);
    const payload = `x' OR tenant_id = '${VICTIM}`;
    expect(foreignData({ error: `not found: ${payload}` }, ATTACKER, payload, owner)).toEqual([]);
  });
});
