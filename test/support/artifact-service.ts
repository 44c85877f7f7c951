/**
 * A loopback stand-in for the Actions results service and its blob storage, as `@actions/artifact` (v2+, the
 * artifact backend v4) talks to them: Twirp JSON calls `CreateArtifact` (answering a signed upload URL on this
 * server) and `FinalizeArtifact` (answering the artifact id), and Azure Blob's block upload (`PUT ?comp=block`,
 * then `PUT ?comp=blocklist`) or a single `PUT` for the content. It records what arrived, so a test can read the
 * uploaded file back byte for byte.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

const TWIRP = "/twirp/github.actions.results.api.v1.ArtifactService/";

export interface UploadedArtifact {
  name: string;
  mimeType?: string;
  /** The committed blob's bytes. */
  content: Buffer;
  finalized: boolean;
  id?: number;
  /** The backend ids the client read from the runtime token. */
  runBackendId: string;
  jobBackendId: string;
}

export interface ArtifactService {
  /** ACTIONS_RESULTS_URL */
  url: string;
  /** ACTIONS_RUNTIME_TOKEN: an unsigned JWT whose `scp` names the run's and job's backend ids (all the client reads). */
  token: string;
  artifacts: UploadedArtifact[];
  close(): Promise<void>;
}

const RUN_BACKEND_ID = "11111111-2222-4333-8444-555555555555";
const JOB_BACKEND_ID = "66666666-7777-4888-8999-aaaaaaaaaaaa";

function runtimeToken(): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${b64({ alg: "none", typ: "JWT" })}.${b64({ scp: `Actions.GenericRead Actions.Results:${RUN_BACKEND_ID}:${JOB_BACKEND_ID}` })}.sig`;
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

export async function startArtifactService(o: { failCreate?: boolean } = {}): Promise<ArtifactService> {
  const artifacts: UploadedArtifact[] = [];
  const blocks = new Map<string, Buffer>();
  let nextId = 9000;
  let base = "";
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", base);
    const data = await body(req);
    if (req.method === "POST" && url.pathname.startsWith(TWIRP)) {
      const call = url.pathname.slice(TWIRP.length);
      const msg = JSON.parse(data.toString("utf8") || "{}");
      if (call === "CreateArtifact") {
        if (o.failCreate)
          return json(res, 403, { code: "permission_denied", msg: "the token may not write artifacts" });
        artifacts.push({
          name: msg.name,
          mimeType: msg.mimeType?.value ?? msg.mime_type,
          content: Buffer.alloc(0),
          finalized: false,
          runBackendId: msg.workflowRunBackendId ?? msg.workflow_run_backend_id,
          jobBackendId: msg.workflowJobRunBackendId ?? msg.workflow_job_run_backend_id,
        });
        return json(res, 200, {
          ok: true,
          signedUploadUrl: `${base}/blob/${encodeURIComponent(msg.name)}?sig=loopback`,
        });
      }
      if (call === "FinalizeArtifact") {
        const a = artifacts.find((x) => x.name === msg.name && !x.finalized);
        if (!a) return json(res, 404, { code: "not_found", msg: "no such artifact" });
        a.finalized = true;
        a.id = nextId++;
        return json(res, 200, { ok: true, artifactId: String(a.id) });
      }
      return json(res, 404, { code: "bad_route", msg: call });
    }
    if (req.method === "PUT" && url.pathname.startsWith("/blob/")) {
      const name = decodeURIComponent(url.pathname.slice("/blob/".length));
      const a = artifacts.find((x) => x.name === name && !x.finalized);
      if (!a) return json(res, 404, {});
      const comp = url.searchParams.get("comp");
      if (comp === "block") blocks.set(`${name}\0${url.searchParams.get("blockid")}`, data);
      else if (comp === "blocklist") {
        const ids = [...data.toString("utf8").matchAll(/<(?:Latest|Committed|Uncommitted)>([^<]*)</g)].map(
          (m) => m[1]!,
        );
        a.content = Buffer.concat(ids.map((id) => blocks.get(`${name}\0${id}`) ?? Buffer.alloc(0)));
      } else a.content = data;
      res.writeHead(201, {
        etag: '"0x1"',
        "last-modified": new Date().toUTCString(),
        "x-ms-request-id": "loopback",
      });
      return res.end();
    }
    json(res, 404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    token: runtimeToken(),
    artifacts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
