/**
 * tenant-isolation (seed domain 05, security): `handler(ctx: {tenantId}, id, db) → row | null` against a real
 * SQLite database (sql.js) holding `invoices(id, tenant_id, amount_cents, memo)` for tenants `tnt_victim`,
 * `tnt_attacker` and others. Runtime probes: own records found, other tenants' records and missing ids
 * give null (a throw also counts as refusal), injection payloads return nothing and leave the table intact,
 * and no SQL text ever contains the probed id or tenant. A missing, undefined, null or empty tenant and the
 * victim's tenant id in other cases get nothing; every returned value is searched for other tenants' ids and
 * names (rows beyond the first, nested "related" rows). Static probe: SQL built by interpolation (AST).
 */
import fc from "fast-check";
import { decodeValue, TAGGED } from "../../src/sandbox/tagged.js";
import { ObservationError } from "../judging.js";
import { OUTCOME_SCHEMA } from "../shared/calls.js";
import { expect, Observed, observedPropertyCheck, propertyParams, show } from "../shared/property.js";
import type { GateCheck, GateJudge } from "../types.js";
import {
  ATTACKER,
  type Invoice,
  type QueryRecord,
  seedInvoices,
  TENANTS,
  type TenantObservation,
  type TenantProbe,
  VICTIM,
} from "./data.js";
import { findInterpolatedSql } from "./sql-ast.js";

export { ATTACKER, VICTIM };

/** Ids an attacker might send, `{victim}` replaced by a real victim invoice id. */
const INJECTION_PAYLOADS = [
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

/** One handler call as the judge sees it: the queries it sent and what it returned (decoded) or threw. */
interface Call {
  queries: QueryRecord[];
  threw?: string;
  value?: unknown;
}

function callOf(obs: unknown): Call {
  const o = obs as TenantObservation;
  if ("notFunction" in o) throw new NotAFunctionError(o.notFunction);
  if (!("queries" in o)) throw new ObservationError("a handler call was answered with a table dump");
  return "threw" in o.outcome
    ? { queries: o.queries, threw: o.outcome.threw }
    : { queries: o.queries, value: decodeValue(o.outcome.value) };
}

class NotAFunctionError extends Error {}

function isNothing(v: unknown): boolean {
  return v === null || v === undefined || (Array.isArray(v) && v.length === 0);
}

function rowId(v: unknown): unknown {
  const row = Array.isArray(v) ? v[0] : v;
  return row !== null && typeof row === "object" ? (row as Record<string, unknown>).id : undefined;
}

function callProbe(seed: number, tenant: string, id: string): TenantProbe {
  return { kind: "call", seed, ctx: { tenantId: tenant }, id };
}

/** Contexts without a tenant: each must get nothing (a `COALESCE(?, tenant_id)` filter gives everything). */
const MISSING_TENANTS: readonly [string, unknown][] = [
  ["ctx {}", {}],
  ["tenantId undefined", { tenantId: undefined }],
  ["tenantId null", { tenantId: null }],
  ['tenantId ""', { tenantId: "" }],
];
/** The victim's tenant id in other cases: not a tenant (ids are compared exactly), so nothing. */
const ODD_CASE_TENANTS: readonly string[] = [VICTIM.toUpperCase(), "Tnt_Victim"];

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

export const tenantIsolation: GateJudge = {
  id: "tenant-isolation",
  observationSchema: TENANT_OBSERVATION_SCHEMA,
  async judge(session, ctx) {
    const params = propertyParams(ctx.seed, ctx.options);
    const seed = ctx.seed;
    const callee = ctx.callee;
    const invoices = seedInvoices(seed);
    const ofTenant = (t: string) => invoices.filter((r) => r.tenant_id === t);
    const victimIds = ofTenant(VICTIM).map((r) => r.id);
    const observed = new Observed<[string, string], TenantProbe>(session, ([t, id]) =>
      callProbe(seed, t, id),
    );
    const oddObserved = new Observed<[unknown, string], TenantProbe>(session, ([c, id]) => ({
      kind: "call",
      seed,
      ctx: c,
      id,
    }));
    const owner = new Map(invoices.map((r) => [r.id, r.tenant_id]));
    const checks: GateCheck[] = [];
    const sqlLeaks: string[] = [];
    const rowLeaks = new Set<string>();
    let queries = 0;
    let calls = 0;
    const judged = (tenant: unknown, id: string, obs: unknown, caller = `tenant ${show(tenant)}`): Call => {
      const out = callOf(obs);
      calls++;
      queries += out.queries.length;
      for (const q of out.queries) {
        for (const value of [id, tenant])
          if (typeof value === "string" && value.length >= 3 && q.sql.includes(value))
            sqlLeaks.push(`${show(value)} in ${show(q.sql)}`);
      }
      if (out.threw === undefined)
        for (const leak of foreignData(out.value, tenant, id, owner))
          rowLeaks.add(`${caller} asked for ${show(id)}: ${leak}`);
      return out;
    };
    const probe = async (tenant: string, id: string): Promise<Call> =>
      judged(tenant, id, await observed.get([tenant, id]));
    const own = [ATTACKER, VICTIM].map((t) => ofTenant(t)[0] as Invoice);
    const injections = INJECTION_PAYLOADS.map((t) => t.replace("{victim}", victimIds[0] as string));
    const randomArb = fc.tuple(fc.constantFrom(...TENANTS), fc.constantFrom(...invoices));
    try {
      // The fixed calls in one request, the random ones in another; the table is read after them all.
      await observed.prime([
        ...own.map((r): [string, string] => [r.tenant_id, r.id]),
        ...victimIds.map((id): [string, string] => [ATTACKER, id]),
        [ATTACKER, "inv_does_not_exist"],
        ...injections.map((id): [string, string] => [ATTACKER, id]),
      ]);
      const oddCalls: { check: string; caller: string; tenant: unknown; ctx: unknown; id: string }[] = [];
      for (const id of victimIds) {
        for (const [caller, c] of MISSING_TENANTS)
          oddCalls.push({
            check: "missing-tenant",
            caller,
            tenant: (c as { tenantId?: unknown }).tenantId,
            ctx: c,
            id,
          });
        for (const t of ODD_CASE_TENANTS)
          oddCalls.push({
            check: "tenant-case",
            caller: `tenant ${show(t)}`,
            tenant: t,
            ctx: { tenantId: t },
            id,
          });
      }
      await oddObserved.prime(oddCalls.map((c): [unknown, string] => [c.ctx, c.id]));
      const randomObserved = new Observed<[string, Invoice], TenantProbe>(session, ([t, inv]) =>
        callProbe(seed, t, inv.id),
      );

      // Own records are found (a handler that refuses everything is not isolation, it is broken).
      const ownFailures: string[] = [];
      for (const r of own) {
        const out = await probe(r.tenant_id, r.id);
        if (out.threw !== undefined)
          ownFailures.push(`tenant ${r.tenant_id}, own id ${r.id}: threw ${out.threw}`);
        else if (rowId(out.value) !== r.id)
          ownFailures.push(`tenant ${r.tenant_id}, own id ${r.id}: returned ${show(out.value)}`);
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
        if (out.threw === undefined && !isNothing(out.value))
          crossLeaks.push(`${ATTACKER} asked for ${id} and got ${show(out.value)}`);
      }
      const missing = await probe(ATTACKER, "inv_does_not_exist");
      if (missing.threw === undefined && !isNothing(missing.value))
        crossLeaks.push(`a missing id returned ${show(missing.value)}`);
      checks.push({
        id: "cross-tenant",
        passed: crossLeaks.length === 0,
        message: crossLeaks.length
          ? `cross-tenant read: ${crossLeaks.slice(0, 3).join("; ")}`
          : `${victimIds.length} victim invoices refused to ${ATTACKER}`,
      });

      checks.push(
        await observedPropertyCheck(
          "random-access",
          "random (tenant, invoice) pairs: own rows returned, others' never",
          randomArb,
          randomObserved,
          ([tenant, inv], obs) => {
            const out = judged(tenant, inv.id, obs);
            if (inv.tenant_id === tenant) {
              expect(
                out.threw === undefined && rowId(out.value) === inv.id,
                () => `${tenant} did not get its own ${inv.id}: ${out.threw ?? show(out.value)}`,
              );
            } else {
              expect(
                out.threw !== undefined || isNothing(out.value),
                () => `${tenant} read ${inv.tenant_id}'s ${inv.id}: ${show(out.value)}`,
              );
            }
          },
          params,
        ),
      );

      for (const [check, what] of [
        ["missing-tenant", "a missing, undefined, null or empty tenant"],
        ["tenant-case", `the victim's tenant id in other cases (${ODD_CASE_TENANTS.join(", ")})`],
      ] as const) {
        const mine = oddCalls.filter((c) => c.check === check);
        const leaks: string[] = [];
        for (const c of mine) {
          const out = judged(c.tenant, c.id, await oddObserved.get([c.ctx, c.id]), c.caller);
          if (out.threw === undefined && !isNothing(out.value))
            leaks.push(`${c.caller} asked for ${c.id} and got ${show(out.value)}`);
        }
        checks.push({
          id: check,
          passed: leaks.length === 0,
          message: leaks.length
            ? `${what} read ${VICTIM}'s invoices: ${leaks.slice(0, 3).join("; ")}${leaks.length > 3 ? ` … (${leaks.length} of ${mine.length})` : ""}`
            : `${what}: all ${mine.length} requests for ${VICTIM}'s invoices got nothing`,
        });
      }

      const injected: string[] = [];
      for (const payload of injections) {
        const out = await probe(ATTACKER, payload);
        if (out.threw === undefined && !isNothing(out.value))
          injected.push(`id ${show(payload)} returned ${show(out.value)}`);
      }
      checks.push({
        id: "injection",
        passed: injected.length === 0,
        message: injected.length
          ? `injection payloads returned rows: ${injected.slice(0, 3).join("; ")}`
          : `${INJECTION_PAYLOADS.length} injection payloads returned nothing`,
      });
    } catch (err) {
      if (err instanceof NotAFunctionError)
        return { checks: [{ id: "export", passed: false, message: `${err.message}, not a function` }] };
      throw err;
    }
    checks.push({
      id: "returned-rows",
      passed: rowLeaks.size === 0,
      message: rowLeaks.size
        ? `a returned value holds other tenants' data (every row returned is checked, not just the first): ${[...rowLeaks].slice(0, 3).join("; ")}${rowLeaks.size > 3 ? ` … (${rowLeaks.size})` : ""}`
        : `${calls} returned values hold no other tenant's invoice ids or names`,
    });
    const [table] = await session.observe([{ kind: "table", seed } satisfies TenantProbe]);
    const expectedRows = [...invoices]
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((r) => [r.id, r.tenant_id, r.amount_cents, r.memo]);
    const t = table as TenantObservation;
    const intact = "rows" in t && JSON.stringify(t.rows) === JSON.stringify(expectedRows);
    checks.push({
      id: "table-intact",
      passed: intact,
      message: intact
        ? "the invoices table is unchanged after all probes"
        : "tableError" in t
          ? `the invoices table is unreadable after the probes: ${t.tableError}`
          : "the invoices table was changed by the probes (rows deleted, altered or the table dropped)",
    });
    checks.push({
      id: "sql-text",
      passed: sqlLeaks.length === 0 && queries > 0,
      message:
        queries === 0
          ? `${callee} never called db.query`
          : sqlLeaks.length
            ? `SQL text contains request values (must be bound parameters): ${[...new Set(sqlLeaks)].slice(0, 3).join("; ")}`
            : `${queries} queries, none containing a request value`,
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
    return { checks, metrics: { queries, invoices: invoices.length, runs: params.numRuns } };
  },
};
