import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { actionsArtifactUploader, artifactsAvailable, artifactUrl } from "../../src/github/artifact.js";
import { reviewReportFile } from "../../src/github/report-files.js";
import { type ArtifactService, startArtifactService } from "../support/artifact-service.js";

let service: ArtifactService | undefined;
const scratch: string[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await service?.close();
  service = undefined;
  await Promise.all(scratch.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function page(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "sg-artifact-"));
  scratch.push(dir);
  const file = join(dir, "skillgate-report.html");
  await writeFile(file, text);
  return file;
}

describe("the review report as an artifact", () => {
  it("uploads the page with @actions/artifact to the results service, unzipped, and returns its id", async () => {
    service = await startArtifactService();
    vi.stubEnv("ACTIONS_RUNTIME_TOKEN", service.token);
    vi.stubEnv("ACTIONS_RESULTS_URL", `${service.url}/`);
    vi.stubEnv("GITHUB_SERVER_URL", "https://github.com");
    const text = `<!doctype html><title>r</title>${"é".repeat(5000)}`;
    const file = await page(text);
    const id = await actionsArtifactUploader.uploadFile(file, join(file, ".."));
    expect(service.artifacts).toHaveLength(1);
    const a = service.artifacts[0]!;
    expect(a).toMatchObject({ name: "skillgate-report.html", finalized: true, id, mimeType: "text/html" });
    expect(a.runBackendId).toMatch(/^11111111-/);
    expect(a.content.toString("utf8")).toBe(text);
  });

  it("fails with the service's error when the results service refuses", async () => {
    service = await startArtifactService({ failCreate: true });
    vi.stubEnv("ACTIONS_RUNTIME_TOKEN", service.token);
    vi.stubEnv("ACTIONS_RESULTS_URL", service.url);
    const file = await page("<p>x</p>");
    await expect(actionsArtifactUploader.uploadFile(file, join(file, ".."))).rejects.toThrow(/403/);
    expect(service.artifacts).toHaveLength(0);
  });

  it("knows when the step has an artifact service, and links the artifact's page", () => {
    expect(artifactsAvailable({ ACTIONS_RUNTIME_TOKEN: "t", ACTIONS_RESULTS_URL: "http://x" })).toBe(true);
    expect(artifactsAvailable({ ACTIONS_RUNTIME_TOKEN: "t" })).toBe(false);
    expect(artifactUrl({ serverUrl: "https://github.com/", owner: "o", repo: "r", runId: "77" }, 9000)).toBe(
      "https://github.com/o/r/actions/runs/77/artifacts/9000",
    );
    expect(artifactUrl({ serverUrl: "https://github.com", owner: "o", repo: "r" }, 1)).toBeUndefined();
  });

  it("names a shard's page after its shard (artifacts of one run need distinct names)", () => {
    expect(reviewReportFile("out/skillgate-report.html", undefined)).toBe("out/skillgate-report.html");
    expect(reviewReportFile("skillgate-report.html", { index: 2, total: 3 })).toBe(
      "skillgate-report-shard-2-of-3.html",
    );
    expect(reviewReportFile("review", { index: 1, total: 2 })).toBe("review-shard-1-of-2");
  });
});
