/**
 * tenant-isolation (seed domain 05, security): `handler(ctx: {tenantId}, id, db) → row | null` against a real
 * SQLite database (sql.js) holding `invoices(id, tenant_id, amount_cents, memo)` for tenants `tnt_victim`,
 * `tnt_attacker` and others. Runtime probes: own records found, other tenants' records and missing ids
 * give null (a throw also counts as refusal), injection payloads return nothing and leave the table intact,
 * and no SQL text ever contains the probed id or tenant. Static probe: SQL built by interpolation (AST).
 */
import { dirname } from "node:path";
import fc from "fast-check";
import initSqlJs, { type Database, type SqlJsStatic } from "sql.js";
import { functionExport } from "../shared/input.js";
import { asyncPropertyCheck, expect, propertyParams, show } from "../shared/property.js";
import { describe } from "../shared/runtime.js";
import type { Gate, GateCheck, GateInput } from "../types.js";
import { findInterpolatedSql } from "./sql-ast.js";

type Handler = (ctx: { tenantId: string }, id: string, db: Db) => unknown;
interface Db {
  query(sql: string, params?: unknown): Promise<Record<string, unknown>[]>;
}
interface Invoice {
  id: string;
  tenant_id: string;
  amount_cents: number;
  memo: string;
}

export const VICTIM = "tnt_victim";
export const ATTACKER = "tnt_attacker";
export const TENANTS = [VICTIM, ATTACKER, "tnt_globex", "tnt_initech"] as const;
const INVOICES_PER_TENANT = 4;

/** Ids an attacker might send, `{victim}` replaced by a real victim invoice id. */
export const INJECTION_PAYLOADS = [
  "' OR 1=1 --",
  "' OR '1'='1",
  '" OR "1"="1',
  "x' UNION SELECT id, tenant_id, amount_cents, memo FROM invoices --",
  "x' UNION SELECT * FROM invoices WHERE tenant_id = 'tnt_victim' --",
  "{victim}' --",
  "{victim}' OR tenant_id = 'tnt_victim",
  "x'; DROP TABLE invoices; --",
  "x'; DELETE FROM invoices; --",
  "x'; UPDATE invoices SET tenant_id = 'tnt_attacker'; --",
  "1 OR 1=1",
];

let sqlPromise: Promise<SqlJsStatic> | undefined;

/** sql.js, initialised once per child (reading and compiling its WebAssembly is the slow part). */
function sqlJs(sqlWasm: string): Promise<SqlJsStatic> {
  // sql.js is CommonJS and reads __dirname; inside an ESM bundle that free name resolves to the global.
  const g = globalThis as { __dirname?: string; __filename?: string };
  g.__dirname ??= dirname(sqlWasm);
  g.__filename ??= sqlWasm;
  // The child keeps this WebAssembly on V8's baseline tier (see CHILD_V8_FLAGS in gates/catalog.ts).
  sqlPromise ??= initSqlJs({ locateFile: () => sqlWasm });
  return sqlPromise;
}

/** A seeded database: ids and amounts differ per seed, so nothing can be hard-coded. */
function seedInvoices(seed: number): Invoice[] {
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
  return rows;
}

/** Binds `{id: …}` objects whichever prefix (`:`, `$`, `@`) the SQL uses. */
function normaliseParams(sql: string, params: unknown): unknown {
  if (params === undefined || params === null) return [];
  if (Array.isArray(params) || typeof params !== "object") return params;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params as Record<string, unknown>)) {
    if (/^[:$@]/.test(k)) out[k] = v;
    else for (const p of [":", "$", "@"]) if (sql.includes(p + k)) out[p + k] = v;
  }
  return out;
}

interface Recorder {
  db: Db;
  calls: { sql: string; params: unknown }[];
}

function facade(database: Database): Recorder {
  const calls: Recorder["calls"] = [];
  const db: Db = {
    async query(sql: string, params?: unknown) {
      calls.push({ sql: String(sql), params });
      if (typeof sql !== "string") throw new TypeError("db.query: sql must be a string");
      const results = database.exec(sql, normaliseParams(sql, params) as never);
      const first = results[0];
      if (!first) return [];
      return first.values.map((row) => Object.fromEntries(first.columns.map((c, i) => [c, row[i]])));
    },
  };
  return { db, calls };
}

function snapshot(database: Database): string {
  try {
    return JSON.stringify(
      database.exec("SELECT id, tenant_id, amount_cents, memo FROM invoices ORDER BY id"),
    );
  } catch (err) {
    return `table unreadable: ${describe(err)}`;
  }
}

async function callHandler(
  fn: Handler,
  tenantId: string,
  id: string,
  db: Db,
): Promise<{ threw?: string; value?: unknown }> {
  try {
    return { value: await fn({ tenantId }, id, db) };
  } catch (err) {
    return { threw: describe(err) };
  }
}

function isNothing(v: unknown): boolean {
  return v === null || v === undefined || (Array.isArray(v) && v.length === 0);
}

function rowId(v: unknown): unknown {
  const row = Array.isArray(v) ? v[0] : v;
  return row !== null && typeof row === "object" ? (row as Record<string, unknown>).id : undefined;
}

export const tenantIsolation: Gate = {
  id: "tenant-isolation",
  defaultExports: ["handler"],
  prepare(ctx) {
    // Compile sql.js's WebAssembly while the child loads the module; run() awaits the same promise.
    sqlJs(ctx.assets.sqlWasm).catch(() => {});
  },
  async run(input: GateInput, ctx) {
    const target = functionExport<Handler>(input);
    if ("failed" in target) return target.failed;
    const fn = target.fn;
    const params = propertyParams(ctx.seed, ctx.options);
    const SQL = await sqlJs(ctx.assets.sqlWasm);
    const invoices = seedInvoices(ctx.seed);
    const database = new SQL.Database();
    // One connection owns this database: keep its lock instead of re-taking it (and probing the in-memory
    // file system for a hot journal) around every statement. SQL semantics are unchanged.
    database.run("PRAGMA locking_mode = EXCLUSIVE");
    database.run(
      "CREATE TABLE invoices (id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, amount_cents INTEGER NOT NULL, memo TEXT)",
    );
    for (const r of invoices)
      database.run("INSERT INTO invoices VALUES (?, ?, ?, ?)", [r.id, r.tenant_id, r.amount_cents, r.memo]);
    const before = snapshot(database);
    const { db, calls } = facade(database);
    const checks: GateCheck[] = [];
    const sqlLeaks: string[] = [];
    const probe = async (tenant: string, id: string) => {
      const from = calls.length;
      const out = await callHandler(fn, tenant, id, db);
      for (const c of calls.slice(from)) {
        for (const value of [id, tenant])
          if (value.length >= 3 && c.sql.includes(value)) sqlLeaks.push(`${show(value)} in ${show(c.sql)}`);
      }
      return out;
    };
    const ofTenant = (t: string) => invoices.filter((r) => r.tenant_id === t);
    const victimIds = ofTenant(VICTIM).map((r) => r.id);

    // Own records are found (a handler that refuses everything is not isolation, it is broken).
    const ownFailures: string[] = [];
    for (const t of [ATTACKER, VICTIM]) {
      const r = ofTenant(t)[0] as Invoice;
      const out = await probe(t, r.id);
      if (out.threw) ownFailures.push(`tenant ${t}, own id ${r.id}: threw ${out.threw}`);
      else if (rowId(out.value) !== r.id)
        ownFailures.push(`tenant ${t}, own id ${r.id}: returned ${show(out.value)}`);
    }
    checks.push({
      id: "own-record",
      passed: ownFailures.length === 0,
      message: ownFailures.length
        ? `own records not returned: ${ownFailures.join("; ")}`
        : "each tenant gets its own invoice",
    });

    const crossLeaks: string[] = [];
    for (const id of victimIds) {
      const out = await probe(ATTACKER, id);
      if (!out.threw && !isNothing(out.value))
        crossLeaks.push(`${ATTACKER} asked for ${id} and got ${show(out.value)}`);
    }
    const missing = await probe(ATTACKER, "inv_does_not_exist");
    if (!missing.threw && !isNothing(missing.value))
      crossLeaks.push(`a missing id returned ${show(missing.value)}`);
    checks.push({
      id: "cross-tenant",
      passed: crossLeaks.length === 0,
      message: crossLeaks.length
        ? `cross-tenant read: ${crossLeaks.slice(0, 3).join("; ")}`
        : `${victimIds.length} victim invoices refused to ${ATTACKER}`,
    });

    checks.push(
      await asyncPropertyCheck(
        "random-access",
        "random (tenant, invoice) pairs: own rows returned, others' never",
        fc.asyncProperty(fc.constantFrom(...TENANTS), fc.constantFrom(...invoices), async (tenant, inv) => {
          const out = await probe(tenant, inv.id);
          if (inv.tenant_id === tenant) {
            expect(
              !out.threw && rowId(out.value) === inv.id,
              () => `${tenant} did not get its own ${inv.id}: ${out.threw ?? show(out.value)}`,
            );
          } else {
            expect(
              Boolean(out.threw) || isNothing(out.value),
              () => `${tenant} read ${inv.tenant_id}'s ${inv.id}: ${show(out.value)}`,
            );
          }
        }),
        params,
      ),
    );

    const injected: string[] = [];
    for (const template of INJECTION_PAYLOADS) {
      const payload = template.replace("{victim}", victimIds[0] as string);
      const out = await probe(ATTACKER, payload);
      if (!out.threw && !isNothing(out.value))
        injected.push(`id ${show(payload)} returned ${show(out.value)}`);
    }
    checks.push({
      id: "injection",
      passed: injected.length === 0,
      message: injected.length
        ? `injection payloads returned rows: ${injected.slice(0, 3).join("; ")}`
        : `${INJECTION_PAYLOADS.length} injection payloads returned nothing`,
    });
    const after = snapshot(database);
    checks.push({
      id: "table-intact",
      passed: after === before,
      message:
        after === before
          ? "the invoices table is unchanged after all probes"
          : "the invoices table was changed by the probes (rows deleted, altered or the table dropped)",
    });
    checks.push({
      id: "sql-text",
      passed: sqlLeaks.length === 0 && calls.length > 0,
      message:
        calls.length === 0
          ? "the handler never called db.query"
          : sqlLeaks.length
            ? `SQL text contains request values (must be bound parameters): ${[...new Set(sqlLeaks)].slice(0, 3).join("; ")}`
            : `${calls.length} queries, none containing a request value`,
    });

    const found = findInterpolatedSql(ctx.sourceText, ctx.modulePath);
    if ("parseError" in found)
      checks.push({
        id: "static-sql",
        passed: false,
        message: `cannot parse the module: ${found.parseError}`,
      });
    else
      checks.push({
        id: "static-sql",
        passed: found.length === 0,
        message: found.length
          ? found.map((f) => `${ctx.modulePath}:${f.line}:${f.column}: ${f.message}`).join("\n")
          : "no SQL built by interpolation or concatenation",
      });
    database.close();
    return { checks, metrics: { queries: calls.length, invoices: invoices.length, runs: params.numRuns } };
  },
};
