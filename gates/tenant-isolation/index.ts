/**
 * tenant-isolation (seed domain 05, security): `handler(ctx: {tenantId}, id, db) → row | null` against a real
 * SQLite database (sql.js) holding `invoices(id, tenant_id, amount_cents, memo)` for tenants `tnt_victim`,
 * `tnt_attacker` and others. Runtime probes: own records found, other tenants' records and missing ids
 * give null (a throw also counts as refusal), injection payloads return nothing and leave the table intact,
 * and no SQL text ever contains the probed id or tenant. A missing, undefined, null or empty tenant and the
 * victim's tenant id in other cases get nothing; every returned value is searched for other tenants' ids and
 * names (rows beyond the first, nested "related" rows). Static probe: SQL built by interpolation (AST).
 */
import { TAGGED } from "../../src/sandbox/tagged.js";
import { OUTCOME_SCHEMA } from "../shared/calls.js";
import { propertyParams } from "../shared/property.js";
import type { GateCheck, GateJudge, ProbeSession } from "../types.js";
import { NotAFunctionError, TenantCalls } from "./calls.js";
import {
  ATTACKER,
  type Invoice,
  seedInvoices,
  type TenantObservation,
  type TenantProbe,
  VICTIM,
} from "./data.js";
import { findInterpolatedSql } from "./sql-ast.js";

export { ATTACKER, VICTIM };

const TENANT_OBSERVATION_SCHEMA = {
  oneOf: [
    {
      type: "object",
      required: ["queries", "outcome"],
      additionalProperties: false,
      properties: {
        queries: {
          type: "array",
          items: {
            type: "object",
            required: ["sql", "sqlIsString", "params"],
            additionalProperties: false,
            properties: {
              sql: { type: "string" },
              sqlIsString: { type: "boolean" },
              params: TAGGED,
            },
          },
        },
        outcome: OUTCOME_SCHEMA,
      },
    },
    {
      type: "object",
      required: ["rows"],
      additionalProperties: false,
      properties: {
        rows: {
          type: "array",
          items: {
            type: "array",
            items: [
              { type: "string" },
              { type: "string" },
              { type: "integer" },
              { type: ["string", "null"] },
            ],
            minItems: 4,
            maxItems: 4,
          },
        },
      },
    },
    {
      type: "object",
      required: ["tableError"],
      additionalProperties: false,
      properties: { tableError: { type: "string" } },
    },
    {
      type: "object",
      required: ["notFunction"],
      additionalProperties: false,
      properties: { notFunction: { type: "string" } },
    },
  ],
};

export const tenantIsolation: GateJudge = {
  id: "tenant-isolation",
  observationSchema: TENANT_OBSERVATION_SCHEMA,
  async judge(session, ctx) {
    const params = propertyParams(ctx.seed, ctx.options);
    const invoices = seedInvoices(ctx.seed);
    const calls = new TenantCalls(session, ctx.seed, invoices);
    const checks: GateCheck[] = [];
    try {
      await calls.prime();
      checks.push(await calls.ownRecord(), await calls.crossTenant(), await calls.randomAccess(params));
      checks.push(...(await calls.oddTenants()), await calls.injection());
    } catch (err) {
      if (err instanceof NotAFunctionError)
        return { checks: [{ id: "export", passed: false, message: `${err.message}, not a function` }] };
      throw err;
    }
    checks.push(calls.returnedRows(), await tableIntact(session, ctx.seed, invoices));
    checks.push(calls.sqlText(ctx.callee), staticSql(ctx.sourceText, ctx.modulePath));
    return { checks, metrics: { queries: calls.queries, invoices: invoices.length, runs: params.numRuns } };
  },
};

/** The invoices table after every probe: the same rows (no injection deleted, altered or dropped any). */
async function tableIntact(session: ProbeSession, seed: number, invoices: Invoice[]): Promise<GateCheck> {
  const [table] = await session.observe([{ kind: "table", seed } satisfies TenantProbe]);
  const expectedRows = [...invoices]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((r) => [r.id, r.tenant_id, r.amount_cents, r.memo]);
  const t = table as TenantObservation;
  const intact = "rows" in t && JSON.stringify(t.rows) === JSON.stringify(expectedRows);
  return {
    id: "table-intact",
    passed: intact,
    message: intact
      ? "the invoices table is unchanged after all probes"
      : "tableError" in t
        ? `the invoices table is unreadable after the probes: ${t.tableError}`
        : "the invoices table was changed by the probes (rows deleted, altered or the table dropped)",
  };
}

/** SQL built by interpolation or concatenation in the module's source (its AST). */
function staticSql(sourceText: string, modulePath: string): GateCheck {
  const found = findInterpolatedSql(sourceText, modulePath);
  if ("parseError" in found)
    return { id: "static-sql", passed: false, message: `cannot parse the module: ${found.parseError}` };
  return {
    id: "static-sql",
    passed: found.length === 0,
    message: found.length
      ? found.map((f) => `${modulePath}:${f.line}:${f.column}: ${f.message}`).join("\n")
      : "no SQL built by interpolation or concatenation",
  };
}
