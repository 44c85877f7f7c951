/**
 * tenant-isolation, child side: a real SQLite database (sql.js) holding the seeded invoices, and the probes
 * the judge asks for: call `handler(ctx, id, db)` and record every query it sent (SQL text, parameters) and
 * what it returned or threw; or dump the table. Whether any of it leaks is decided in the parent
 * (gates/tenant-isolation/index.ts).
 */
import { dirname } from "node:path";
import initSqlJs, { type Database, type SqlJsStatic } from "sql.js";
import { decodeInput, describeThrown, encodeValue, type Tagged } from "../../src/sandbox/tagged.js";
import type { GateCollector, GateInput, ProbeRunner } from "../types.js";
import { type QueryRecord, seedInvoices, type TenantObservation, type TenantProbe } from "./data.js";

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

function openDatabase(SQL: SqlJsStatic, seed: number): Database {
  const database = new SQL.Database();
  // One connection owns this database: keep its lock instead of re-taking it (and probing the in-memory
  // file system for a hot journal) around every statement. SQL semantics are unchanged.
  database.run("PRAGMA locking_mode = EXCLUSIVE");
  database.run(
    "CREATE TABLE invoices (id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, amount_cents INTEGER NOT NULL, memo TEXT)",
  );
  for (const r of seedInvoices(seed))
    database.run("INSERT INTO invoices VALUES (?, ?, ?, ?)", [r.id, r.tenant_id, r.amount_cents, r.memo]);
  return database;
}

/** The database the handler sees: real SQLite behind `query`, every call recorded. */
function facade(database: Database, queries: QueryRecord[]) {
  return {
    async query(sql: unknown, params?: unknown) {
      let text: string;
      try {
        text = typeof sql === "string" ? sql : String(sql);
      } catch (err) {
        text = `<unprintable: ${describeThrown(err)}>`;
      }
      queries.push({ sql: text, sqlIsString: typeof sql === "string", params: encodeValue(params) });
      if (typeof sql !== "string") throw new TypeError("db.query: sql must be a string");
      const results = database.exec(sql, normaliseParams(sql, params) as never);
      const first = results[0];
      if (!first) return [];
      return first.values.map((row) => Object.fromEntries(first.columns.map((c, i) => [c, row[i]])));
    },
  };
}

function dump(database: Database): TenantObservation {
  try {
    const [result] = database.exec("SELECT id, tenant_id, amount_cents, memo FROM invoices ORDER BY id");
    return { rows: (result?.values ?? []) as [string, string, number, string | null][] };
  } catch (err) {
    return { tableError: describeThrown(err) };
  }
}

export const collector: GateCollector = {
  id: "tenant-isolation",
  prepare(ctx) {
    // Compile sql.js's WebAssembly while the child loads the module; start() awaits the same promise.
    sqlJs(ctx.assets.sqlWasm).catch(() => {});
  },
  async start(input: GateInput, ctx): Promise<ProbeRunner> {
    const SQL = await sqlJs(ctx.assets.sqlWasm);
    const fn = input.kind === "export" && typeof input.value === "function" ? input.value : undefined;
    const what = input.kind === "export" ? `export '${input.name}' is ${typeof input.value}` : "not code";
    let current: { seed: number; database: Database } | undefined;
    const databaseOf = (seed: number) => {
      if (current?.seed !== seed) {
        current?.database.close();
        current = { seed, database: openDatabase(SQL, seed) };
      }
      return current.database;
    };
    return async (raw): Promise<TenantObservation> => {
      const probe = raw as TenantProbe;
      if (probe.kind === "table") return dump(databaseOf(probe.seed));
      if (!fn) return { notFunction: what };
      const queries: QueryRecord[] = [];
      const db = facade(databaseOf(probe.seed), queries);
      try {
        const value = await (fn as (...a: unknown[]) => unknown)(
          decodeInput(probe.ctx as Tagged),
          decodeInput(probe.id as Tagged),
          db,
        );
        return { queries, outcome: { value: encodeValue(value) } };
      } catch (err) {
        return { queries, outcome: { threw: describeThrown(err) } };
      }
    };
  },
};
