/**
 * A loopback GitHub REST API for tests. Every request is matched to an operation of GitHub's OpenAPI description
 * (the operations skillgate uses, extracted into test/fixtures/github-openapi-ops.json by
 * scripts/extract-github-fixtures.mjs) and its path, query and JSON body are validated against that description;
 * a request that does not validate is answered 422 like GitHub would and recorded in `violations`. Responses are
 * validated too, so the fake cannot drift from the real shapes. State is kept for check runs (updates append
 * annotations, as on GitHub), issue comments and pull request files (paginated, capped at 3,000).
 * Listens on 127.0.0.1 only.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";

interface Operation {
  operationId: string;
  method: string;
  path: string;
  parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody: Record<string, unknown> | null;
  responses: Record<string, Record<string, unknown> | null>;
}

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), "../fixtures/github-openapi-ops.json");
const spec = JSON.parse(readFileSync(FIXTURE, "utf8")) as { operations: Operation[] };

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
ajv.addFormat("date-time", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
ajv.addFormat("uri", /^[a-z][a-z0-9+.-]*:\S*$/i);
ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isSafeInteger(n) });

/**
 * OpenAPI 3.0 `nullable: true` admits null, also next to an `enum` that does not list it; Ajv checks the enum
 * regardless, so null is added to such enums.
 */
function nullableEnums(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableEnums);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = nullableEnums(v);
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null))
    out.enum = [...out.enum, null];
  return out;
}

const compiled = new Map<object, ValidateFunction>();
function validator(schema: object): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    v = ajv.compile(nullableEnums(schema) as object);
    compiled.set(schema, v);
  }
  return v;
}

/** GitHub rules the OpenAPI description does not state (ANCHORS.md § GitHub), enforced here like GitHub does. */
function extraRules(op: Operation, body: unknown): string[] {
  const errors: string[] = [];
  if (op.operationId === "checks/create" || op.operationId === "checks/update") {
    const annotations =
      (body as { output?: { annotations?: { title?: string }[] } })?.output?.annotations ?? [];
    annotations.forEach((a, i) => {
      if ((a.title?.length ?? 0) > 255)
        errors.push(`/output/annotations/${i}/title longer than 255 characters`);
    });
  }
  return errors;
}

export interface RecordedRequest {
  method: string;
  url: string;
  operationId?: string;
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  authorization?: string;
  status: number;
}

export interface PullFile {
  filename: string;
  status: "added" | "removed" | "modified" | "renamed" | "copied" | "changed" | "unchanged";
  previous_filename?: string;
}

export interface CheckRunState {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  started_at: string | null;
  completed_at: string | null;
  details_url: string | null;
  external_id: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
  annotations: Record<string, unknown>[];
}

export interface CommentState {
  id: number;
  issue: number;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface GitHubApiOptions {
  owner: string;
  repo: string;
  /** Files of pull requests, by number. */
  pullFiles?: Record<number, PullFile[]>;
  /** Pull request objects answered by `pulls.get`, by number (e.g. a webhook payload's `pull_request`). */
  pulls?: Record<number, Record<string, unknown>>;
  /** Files answered by `repos.getContent`, by ref, then repository path. */
  contents?: Record<string, Record<string, string>>;
  /** Labels on issues and pull requests as they are now, by number (read fresh by the override check). */
  labels?: Record<number, string[]>;
  /** Existing issue comments, by issue number. */
  comments?: Record<number, string[]>;
  /** Fork / Dependabot token: writes to check runs and comments answer 403. */
  readOnly?: boolean;
  /** Actions caches of the repository (`actions.getActionsCacheList` filters by ref and key prefix). */
  caches?: { key: string; ref: string }[];
  /** Permission level of collaborators by login (`repos.getCollaboratorPermissionLevel`); others answer 404. */
  permissions?: Record<string, "admin" | "maintain" | "write" | "triage" | "read" | "none">;
  /** Answer the next `count` requests of an operation with `status` (5xx, 429 …). */
  faults?: { operationId: string; status: number; count: number; headers?: Record<string, string> }[];
}

export interface GitHubApi {
  url: string;
  requests: RecordedRequest[];
  /** Requests (or our own responses) that did not match GitHub's description. Tests assert it stays empty. */
  violations: string[];
  checkRuns: CheckRunState[];
  comments: CommentState[];
  close(): Promise<void>;
}

const NOW = "2026-11-29T12:00:00Z";

function compilePath(path: string): { re: RegExp; names: string[] } {
  const names: string[] = [];
  const re = new RegExp(
    `^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{(\w+)\\?\}|\{(\w+)\}/g, (_m, a, b) => {
      names.push(a ?? b);
      return "([^/]+)";
    })}$`,
  );
  return { re, names };
}

const routes = spec.operations.map((op) => ({ op, ...compilePath(op.path) }));

function coerce(value: string, schema: Record<string, unknown>): unknown {
  if (schema.type === "integer" || schema.type === "number")
    return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  return value;
}

export async function startGitHubApi(options: GitHubApiOptions): Promise<GitHubApi> {
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  const checkRuns: CheckRunState[] = [];
  const comments: CommentState[] = [];
  let nextId = 1000;
  for (const [issue, bodies] of Object.entries(options.comments ?? {}))
    for (const body of bodies)
      comments.push({ id: nextId++, issue: Number(issue), body, created_at: NOW, updated_at: NOW });
  const faults = (options.faults ?? []).map((f) => ({ ...f }));
  let base = "";

  const user = (login: string, id: number) => ({
    login,
    id,
    node_id: `U_${id}`,
    avatar_url: `${base}/avatars/${login}`,
    gravatar_id: "",
    url: `${base}/users/${login}`,
    html_url: `${base}/${login}`,
    followers_url: `${base}/users/${login}/followers`,
    following_url: `${base}/users/${login}/following{/other_user}`,
    gists_url: `${base}/users/${login}/gists{/gist_id}`,
    starred_url: `${base}/users/${login}/starred{/owner}{/repo}`,
    subscriptions_url: `${base}/users/${login}/subscriptions`,
    organizations_url: `${base}/users/${login}/orgs`,
    repos_url: `${base}/users/${login}/repos`,
    events_url: `${base}/users/${login}/events{/privacy}`,
    received_events_url: `${base}/users/${login}/received_events`,
    type: "Bot",
    site_admin: false,
  });
  const repoPath = `/repos/${options.owner}/${options.repo}`;
  const checkRunJson = (c: CheckRunState) => ({
    id: c.id,
    node_id: `CR_${c.id}`,
    head_sha: c.head_sha,
    name: c.name,
    external_id: c.external_id,
    url: `${base}${repoPath}/check-runs/${c.id}`,
    html_url: `${base}/${options.owner}/${options.repo}/runs/${c.id}`,
    details_url: c.details_url,
    status: c.status,
    conclusion: c.conclusion,
    started_at: c.started_at,
    completed_at: c.completed_at,
    output: {
      title: c.output.title,
      summary: c.output.summary,
      text: c.output.text,
      annotations_count: c.annotations.length,
      annotations_url: `${base}${repoPath}/check-runs/${c.id}/annotations`,
    },
    check_suite: { id: 1 },
    app: null,
    pull_requests: [],
  });
  const commentJson = (c: CommentState) => ({
    id: c.id,
    node_id: `IC_${c.id}`,
    url: `${base}${repoPath}/issues/comments/${c.id}`,
    html_url: `${base}/${options.owner}/${options.repo}/pull/${c.issue}#issuecomment-${c.id}`,
    issue_url: `${base}${repoPath}/issues/${c.issue}`,
    body: c.body,
    user: user("github-actions[bot]", 41898282),
    created_at: c.created_at,
    updated_at: c.updated_at,
    author_association: "NONE",
  });

  function paginate<T>(res: ServerResponse, url: URL, items: T[]): T[] {
    const perPage = Math.min(100, Number(url.searchParams.get("per_page") ?? 30));
    const page = Number(url.searchParams.get("page") ?? 1);
    const last = Math.max(1, Math.ceil(items.length / perPage));
    if (page < last) {
      const next = new URL(url);
      next.searchParams.set("page", String(page + 1));
      next.searchParams.set("per_page", String(perPage));
      const lastUrl = new URL(next);
      lastUrl.searchParams.set("page", String(last));
      res.setHeader("link", `<${next}>; rel="next", <${lastUrl}>; rel="last"`);
    }
    return items.slice((page - 1) * perPage, page * perPage);
  }

  /** The operation's behaviour: [status, body]. */
  function handle(
    op: Operation,
    params: Record<string, string>,
    url: URL,
    // biome-ignore lint/suspicious/noExplicitAny: the body was validated against the operation's schema above.
    body: any,
    res: ServerResponse,
  ): [number, unknown] {
    const forbidden: [number, unknown] = [
      403,
      {
        message: "Resource not accessible by integration",
        documentation_url: "https://docs.github.com/rest",
        status: "403",
      },
    ];
    switch (op.operationId) {
      case "checks/create": {
        if (options.readOnly) return forbidden;
        const c: CheckRunState = {
          id: nextId++,
          name: body.name,
          head_sha: body.head_sha,
          status: body.status ?? "queued",
          conclusion: body.conclusion ?? null,
          started_at: body.started_at ?? NOW,
          completed_at: body.completed_at ?? null,
          details_url: body.details_url ?? null,
          external_id: body.external_id ?? null,
          output: {
            title: body.output?.title ?? null,
            summary: body.output?.summary ?? null,
            text: body.output?.text ?? null,
          },
          annotations: [...(body.output?.annotations ?? [])],
        };
        checkRuns.push(c);
        return [201, checkRunJson(c)];
      }
      case "checks/update": {
        if (options.readOnly) return forbidden;
        const c = checkRuns.find((x) => x.id === Number(params.check_run_id));
        if (!c) return [404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" }];
        for (const k of [
          "name",
          "status",
          "conclusion",
          "started_at",
          "completed_at",
          "details_url",
          "external_id",
        ] as const)
          if (body[k] !== undefined) (c as unknown as Record<string, unknown>)[k] = body[k];
        if (body.conclusion !== undefined && body.status === undefined) c.status = "completed";
        if (body.output) {
          c.output = {
            title: body.output.title ?? null,
            summary: body.output.summary ?? null,
            text: body.output.text ?? null,
          };
          c.annotations.push(...(body.output.annotations ?? []));
        }
        return [200, checkRunJson(c)];
      }
      case "checks/list-for-ref": {
        // GitHub lists the newest first; `filter: latest` (the default) keeps the newest run of each name.
        let runs = checkRuns
          .filter((c) => c.head_sha === params.ref)
          .filter((c) => !url.searchParams.get("check_name") || c.name === url.searchParams.get("check_name"))
          .sort((a, b) => b.id - a.id);
        if ((url.searchParams.get("filter") ?? "latest") === "latest")
          runs = runs.filter((c, i) => runs.findIndex((d) => d.name === c.name) === i);
        const page = paginate(res, url, runs);
        return [200, { total_count: runs.length, check_runs: page.map(checkRunJson) }];
      }
      case "pulls/get": {
        const pr = options.pulls?.[Number(params.pull_number)];
        return pr
          ? [200, pr]
          : [404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" }];
      }
      case "pulls/list-files": {
        const files = (options.pullFiles?.[Number(params.pull_number)] ?? []).slice(0, 3000);
        return [
          200,
          paginate(res, url, files).map((f, i) => ({
            sha: (i + 1).toString(16).padStart(40, "0"),
            filename: f.filename,
            status: f.status,
            additions: 1,
            deletions: 0,
            changes: 1,
            blob_url: `${base}/blob/${f.filename}`,
            raw_url: `${base}/raw/${f.filename}`,
            contents_url: `${base}${repoPath}/contents/${f.filename}`,
            ...(f.previous_filename ? { previous_filename: f.previous_filename } : {}),
          })),
        ];
      }
      case "issues/list-comments":
        return [
          200,
          paginate(
            res,
            url,
            comments.filter((c) => c.issue === Number(params.issue_number)),
          ).map(commentJson),
        ];
      case "issues/create-comment": {
        if (options.readOnly) return forbidden;
        const c = {
          id: nextId++,
          issue: Number(params.issue_number),
          body: body.body,
          created_at: NOW,
          updated_at: NOW,
        };
        comments.push(c);
        return [201, commentJson(c)];
      }
      case "issues/update-comment": {
        if (options.readOnly) return forbidden;
        const c = comments.find((x) => x.id === Number(params.comment_id));
        if (!c) return [404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" }];
        c.body = body.body;
        c.updated_at = NOW;
        return [200, commentJson(c)];
      }
      case "repos/get-content": {
        const ref = url.searchParams.get("ref") ?? "HEAD";
        const text = options.contents?.[ref]?.[params.path ?? ""];
        if (text === undefined)
          return [404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" }];
        const path = params.path ?? "";
        return [
          200,
          {
            type: "file",
            encoding: "base64",
            size: Buffer.byteLength(text),
            name: path.split("/").pop() ?? path,
            path,
            content: Buffer.from(text).toString("base64"),
            sha: "0".repeat(40),
            url: `${base}${repoPath}/contents/${path}?ref=${ref}`,
            git_url: `${base}${repoPath}/git/blobs/${"0".repeat(40)}`,
            html_url: `${base}/${options.owner}/${options.repo}/blob/${ref}/${path}`,
            download_url: `${base}/raw/${ref}/${path}`,
            _links: {
              self: `${base}${repoPath}/contents/${path}?ref=${ref}`,
              git: `${base}${repoPath}/git/blobs/${"0".repeat(40)}`,
              html: `${base}/${options.owner}/${options.repo}/blob/${ref}/${path}`,
            },
          },
        ];
      }
      case "issues/list-labels-on-issue":
        return [
          200,
          paginate(res, url, options.labels?.[Number(params.issue_number)] ?? []).map((name, i) => ({
            id: 5000 + i,
            node_id: `LA_${5000 + i}`,
            url: `${base}${repoPath}/labels/${encodeURIComponent(name)}`,
            name,
            description: null,
            color: "ededed",
            default: false,
          })),
        ];
      case "actions/get-actions-cache-list": {
        const ref = url.searchParams.get("ref");
        const key = url.searchParams.get("key");
        const found = (options.caches ?? []).filter(
          (c) => (!ref || c.ref === ref) && (!key || c.key.startsWith(key)),
        );
        return [
          200,
          {
            total_count: found.length,
            actions_caches: paginate(res, url, found).map((c, i) => ({
              id: 700 + i,
              ref: c.ref,
              key: c.key,
              version: "0".repeat(64),
              last_accessed_at: NOW,
              created_at: NOW,
              size_in_bytes: 1024,
            })),
          },
        ];
      }
      case "repos/get-collaborator-permission-level": {
        const level = options.permissions?.[params.username ?? ""];
        if (!level) return [404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" }];
        const u = user(params.username ?? "", 9000);
        const push = ["admin", "maintain", "write"].includes(level);
        return [
          200,
          {
            permission: level === "maintain" ? "write" : level === "triage" ? "read" : level,
            role_name: level,
            user: {
              ...u,
              type: "User",
              permissions: {
                pull: level !== "none",
                triage: push || level === "triage",
                push,
                maintain: level === "admin" || level === "maintain",
                admin: level === "admin",
              },
              role_name: level,
            },
          },
        ];
      }
      default:
        return [501, { message: `loopback API: ${op.operationId} not implemented` }];
    }
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", base);
    const rec: RecordedRequest = {
      method: req.method ?? "GET",
      url: url.pathname + url.search,
      params: {},
      query: Object.fromEntries(url.searchParams),
      body: undefined,
      authorization: req.headers.authorization,
      status: 0,
    };
    requests.push(rec);
    const send = (status: number, payload: unknown) => {
      rec.status = status;
      res.statusCode = status;
      res.setHeader("content-type", "application/json; charset=utf-8");
      res.end(payload === undefined ? "" : JSON.stringify(payload));
    };
    let match: { op: Operation; params: Record<string, string> } | undefined;
    for (const r of routes) {
      if (r.op.method !== rec.method) continue;
      const m = r.re.exec(url.pathname);
      if (m)
        match = {
          op: r.op,
          params: Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])),
        };
    }
    if (!match) {
      violations.push(
        `${rec.method} ${url.pathname}: no such operation in the extracted OpenAPI description`,
      );
      return send(404, { message: "Not Found" });
    }
    const { op, params } = match;
    rec.operationId = op.operationId;
    rec.params = params;
    const problems: string[] = [];
    if (!rec.authorization) problems.push("no Authorization header");
    if (params.owner !== options.owner || params.repo !== options.repo)
      return send(404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" });
    for (const p of op.parameters) {
      const value =
        p.in === "path" ? params[p.name] : p.in === "query" ? url.searchParams.get(p.name) : undefined;
      if (value === undefined || value === null) {
        if (p.required) problems.push(`missing ${p.in} parameter ${p.name}`);
        continue;
      }
      const v = validator(p.schema);
      if (!v(coerce(value, p.schema)))
        problems.push(`${p.in} parameter ${p.name}: ${ajv.errorsText(v.errors)}`);
    }
    if (op.requestBody) {
      try {
        rec.body = raw ? JSON.parse(raw) : undefined;
      } catch {
        problems.push("body is not JSON");
      }
      const v = validator(op.requestBody);
      if (!v(rec.body)) problems.push(`body: ${ajv.errorsText(v.errors, { dataVar: "body" })}`);
      problems.push(...extraRules(op, rec.body));
    }
    if (problems.length) {
      violations.push(`${op.operationId}: ${problems.join("; ")}`);
      return send(422, {
        message: "Validation Failed",
        errors: problems,
        documentation_url: "https://docs.github.com/rest",
      });
    }
    const fault = faults.find((f) => f.operationId === op.operationId && f.count > 0);
    if (fault) {
      fault.count--;
      for (const [k, v] of Object.entries(fault.headers ?? {})) res.setHeader(k, v);
      return send(fault.status, { message: `injected ${fault.status}` });
    }
    const [status, payload] = handle(op, params, url, rec.body, res);
    const schema = op.responses[String(status)];
    if (schema && status < 300) {
      const v = validator(schema);
      if (!v(payload))
        violations.push(`${op.operationId} response ${status} (the fake's own): ${ajv.errorsText(v.errors)}`);
    }
    send(status, payload);
  }

  const server = createServer((req, res) => {
    onRequest(req, res).catch((e) => {
      violations.push(`server error: ${(e as Error).stack}`);
      res.statusCode = 500;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    violations,
    checkRuns,
    comments,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
