import { describe, expect, it } from "vitest";
import { type Reference, verdictProblems } from "../shared/reference-testing.js";
import { findInterpolatedSql } from "./sql-ast.js";

const references: Reference[] = [
  { file: "good-scoped.ts" },
  { file: "good-check-in-code.js" },
  { file: "bad-unscoped.ts", fails: ["cross-tenant", "random-access"] },
  { file: "bad-template.js", fails: ["injection", "sql-text", "static-sql"] },
  { file: "bad-concat-variable.js", fails: ["injection", "sql-text", "static-sql"] },
  { file: "bad-escaped-interpolation.ts", fails: ["sql-text", "static-sql"] },
];

describe("tenant-isolation gate on reference modules (20 seeds each)", () => {
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
