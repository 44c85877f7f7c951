/**
 * tenant-isolation's runtime checks: the handler calls of one judging, each answered by the sandboxed child and
 * judged here, and what the calls show together (request values in SQL text, other tenants' data in any value
 * returned). One method per check; the judge (index.ts) runs them in order.
 */
import fc from "fast-check";
import { decodeValue } from "../../src/sandbox/tagged.js";
import { ObservationError } from "../judging.js";
import { expect, Observed, observedPropertyCheck, type PropertyParams, show } from "../shared/property.js";
import type { GateCheck, ProbeSession } from "../types.js";
import {
  ATTACKER,
  type Invoice,
  type QueryRecord,
  TENANTS,
  type TenantObservation,
  type TenantProbe,
  VICTIM,
} from "./data.js";
import { foreignData } from "./foreign-data.js";

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

/** Contexts without a tenant: each must get nothing (a `COALESCE(?, tenant_id)` filter gives everything). */
const MISSING_TENANTS: readonly [string, unknown][] = [
  ["ctx {}", {}],
  ["tenantId undefined", { tenantId: undefined }],
  ["tenantId null", { tenantId: null }],
  ['tenantId ""', { tenantId: "" }],
];
/** The victim's tenant id in other cases: not a tenant (ids are compared exactly), so nothing. */
const ODD_CASE_TENANTS: readonly string[] = [VICTIM.toUpperCase(), "Tnt_Victim"];

/** One handler call as the judge sees it: the queries it sent and what it returned (decoded) or threw. */
interface Call {
  queries: QueryRecord[];
  threw?: string;
  value?: unknown;
}

/** The module's export is not a function: the judging ends with that one finding. */
export class NotAFunctionError extends Error {}

function callOf(obs: unknown): Call {
  const o = obs as TenantObservation;
  if ("notFunction" in o) throw new NotAFunctionError(o.notFunction);
  if (!("queries" in o)) throw new ObservationError("a handler call was answered with a table dump");
  return "threw" in o.outcome
    ? { queries: o.queries, threw: o.outcome.threw }
    : { queries: o.queries, value: decodeValue(o.outcome.value) };
}

const isNothing = (v: unknown): boolean =>
  v === null || v === undefined || (Array.isArray(v) && v.length === 0);
const refused = (out: Call): boolean => out.threw !== undefined || isNothing(out.value);

function rowId(v: unknown): unknown {
  const row = Array.isArray(v) ? v[0] : v;
  return row !== null && typeof row === "object" ? (row as Record<string, unknown>).id : undefined;
}

function callProbe(seed: number, tenant: string, id: string): TenantProbe {
  return { kind: "call", seed, ctx: { tenantId: tenant }, id };
}

interface OddCall {
  check: "missing-tenant" | "tenant-case";
  caller: string;
  tenant: unknown;
  ctx: unknown;
  id: string;
}

export class TenantCalls {
  /** Handler calls judged, and the queries they sent. */
  calls = 0;
  queries = 0;
  readonly sqlLeaks: string[] = [];
  readonly rowLeaks = new Set<string>();
  private readonly owner: Map<string, string>;
  private readonly victimIds: string[];
  private readonly own: Invoice[];
  private readonly injections: string[];
  private readonly oddCalls: OddCall[];
  private readonly observed: Observed<[string, string], TenantProbe>;
  private readonly oddObserved: Observed<[unknown, string], TenantProbe>;

  constructor(
    private readonly session: ProbeSession,
    private readonly seed: number,
    private readonly invoices: Invoice[],
  ) {
    const ofTenant = (t: string) => invoices.filter((r) => r.tenant_id === t);
    this.owner = new Map(invoices.map((r) => [r.id, r.tenant_id]));
    this.victimIds = ofTenant(VICTIM).map((r) => r.id);
    this.own = [ATTACKER, VICTIM].map((t) => ofTenant(t)[0] as Invoice);
    this.injections = INJECTION_PAYLOADS.map((t) => t.replace("{victim}", this.victimIds[0] as string));
    this.oddCalls = this.victimIds.flatMap((id): OddCall[] => [
      ...MISSING_TENANTS.map(([caller, c]): OddCall => {
        const tenant = (c as { tenantId?: unknown }).tenantId;
        return { check: "missing-tenant", caller, tenant, ctx: c, id };
      }),
      ...ODD_CASE_TENANTS.map(
        (t): OddCall => ({
          check: "tenant-case",
          caller: `tenant ${show(t)}`,
          tenant: t,
          ctx: { tenantId: t },
          id,
        }),
      ),
    ]);
    this.observed = new Observed(session, ([t, id]) => callProbe(seed, t, id));
    this.oddObserved = new Observed(session, ([c, id]) => ({ kind: "call", seed, ctx: c, id }));
  }

  /** The fixed calls in one request, the odd tenants' in another (the random ones come with their check). */
  async prime(): Promise<void> {
    await this.observed.prime([
      ...this.own.map((r): [string, string] => [r.tenant_id, r.id]),
      ...this.victimIds.map((id): [string, string] => [ATTACKER, id]),
      [ATTACKER, "inv_does_not_exist"],
      ...this.injections.map((id): [string, string] => [ATTACKER, id]),
    ]);
    await this.oddObserved.prime(this.oddCalls.map((c): [unknown, string] => [c.ctx, c.id]));
  }

  /** Judges one answered call, noting request values in its SQL text and other tenants' data in its value. */
  private judged(tenant: unknown, id: string, obs: unknown, caller = `tenant ${show(tenant)}`): Call {
    const out = callOf(obs);
    this.calls++;
    this.queries += out.queries.length;
    for (const q of out.queries)
      for (const value of [id, tenant])
        if (typeof value === "string" && value.length >= 3 && q.sql.includes(value))
          this.sqlLeaks.push(`${show(value)} in ${show(q.sql)}`);
    if (out.threw === undefined)
      for (const leak of foreignData(out.value, tenant, id, this.owner))
        this.rowLeaks.add(`${caller} asked for ${show(id)}: ${leak}`);
    return out;
  }

  private async probe(tenant: string, id: string): Promise<Call> {
    return this.judged(tenant, id, await this.observed.get([tenant, id]));
  }

  /** Own records are found (a handler that refuses everything is not isolation, it is broken). */
  async ownRecord(): Promise<GateCheck> {
    const failures: string[] = [];
    for (const r of this.own) {
      const out = await this.probe(r.tenant_id, r.id);
      if (out.threw !== undefined) failures.push(`tenant ${r.tenant_id}, own id ${r.id}: threw ${out.threw}`);
      else if (rowId(out.value) !== r.id)
        failures.push(`tenant ${r.tenant_id}, own id ${r.id}: returned ${show(out.value)}`);
    }
    return {
      id: "own-record",
      passed: failures.length === 0,
      message: failures.length
        ? `own records not returned: ${failures.join("; ")}`
        : "each tenant gets its own invoice",
    };
  }

  async crossTenant(): Promise<GateCheck> {
    const leaks: string[] = [];
    for (const id of this.victimIds) {
      const out = await this.probe(ATTACKER, id);
      if (!refused(out)) leaks.push(`${ATTACKER} asked for ${id} and got ${show(out.value)}`);
    }
    const missing = await this.probe(ATTACKER, "inv_does_not_exist");
    if (!refused(missing)) leaks.push(`a missing id returned ${show(missing.value)}`);
    return {
      id: "cross-tenant",
      passed: leaks.length === 0,
      message: leaks.length
        ? `cross-tenant read: ${leaks.slice(0, 3).join("; ")}`
        : `${this.victimIds.length} victim invoices refused to ${ATTACKER}`,
    };
  }

  randomAccess(params: PropertyParams): Promise<GateCheck> {
    const randomObserved = new Observed<[string, Invoice], TenantProbe>(this.session, ([t, inv]) =>
      callProbe(this.seed, t, inv.id),
    );
    return observedPropertyCheck(
      "random-access",
      "random (tenant, invoice) pairs: own rows returned, others' never",
      fc.tuple(fc.constantFrom(...TENANTS), fc.constantFrom(...this.invoices)),
      randomObserved,
      ([tenant, inv], obs) => {
        const out = this.judged(tenant, inv.id, obs);
        if (inv.tenant_id === tenant)
          expect(
            out.threw === undefined && rowId(out.value) === inv.id,
            () => `${tenant} did not get its own ${inv.id}: ${out.threw ?? show(out.value)}`,
          );
        else expect(refused(out), () => `${tenant} read ${inv.tenant_id}'s ${inv.id}: ${show(out.value)}`);
      },
      params,
    );
  }

  /** A missing tenant, and the victim's tenant id in other cases: nothing of the victim's. */
  async oddTenants(): Promise<GateCheck[]> {
    const checks: GateCheck[] = [];
    for (const [check, what] of [
      ["missing-tenant", "a missing, undefined, null or empty tenant"],
      ["tenant-case", `the victim's tenant id in other cases (${ODD_CASE_TENANTS.join(", ")})`],
    ] as const) {
      const mine = this.oddCalls.filter((c) => c.check === check);
      const leaks: string[] = [];
      for (const c of mine) {
        const out = this.judged(c.tenant, c.id, await this.oddObserved.get([c.ctx, c.id]), c.caller);
        if (!refused(out)) leaks.push(`${c.caller} asked for ${c.id} and got ${show(out.value)}`);
      }
      checks.push({
        id: check,
        passed: leaks.length === 0,
        message: leaks.length
          ? `${what} read ${VICTIM}'s invoices: ${leaks.slice(0, 3).join("; ")}${leaks.length > 3 ? ` … (${leaks.length} of ${mine.length})` : ""}`
          : `${what}: all ${mine.length} requests for ${VICTIM}'s invoices got nothing`,
      });
    }
    return checks;
  }

  async injection(): Promise<GateCheck> {
    const injected: string[] = [];
    for (const payload of this.injections) {
      const out = await this.probe(ATTACKER, payload);
      if (!refused(out)) injected.push(`id ${show(payload)} returned ${show(out.value)}`);
    }
    return {
      id: "injection",
      passed: injected.length === 0,
      message: injected.length
        ? `injection payloads returned rows: ${injected.slice(0, 3).join("; ")}`
        : `${INJECTION_PAYLOADS.length} injection payloads returned nothing`,
    };
  }

  /** Every value any call returned, searched for other tenants' data. */
  returnedRows(): GateCheck {
    const leaks = [...this.rowLeaks];
    return {
      id: "returned-rows",
      passed: leaks.length === 0,
      message: leaks.length
        ? `a returned value holds other tenants' data (every row returned is checked, not just the first): ${leaks.slice(0, 3).join("; ")}${leaks.length > 3 ? ` … (${leaks.length})` : ""}`
        : `${this.calls} returned values hold no other tenant's invoice ids or names`,
    };
  }

  /** No request value in any SQL text (bound parameters only), and at least one query made. */
  sqlText(callee: string): GateCheck {
    return {
      id: "sql-text",
      passed: this.sqlLeaks.length === 0 && this.queries > 0,
      message:
        this.queries === 0
          ? `${callee} never called db.query`
          : this.sqlLeaks.length
            ? `SQL text contains request values (must be bound parameters): ${[...new Set(this.sqlLeaks)].slice(0, 3).join("; ")}`
            : `${this.queries} queries, none containing a request value`,
    };
  }
}
