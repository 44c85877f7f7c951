/**
 * The review report as a workflow-run artifact: uploaded with `@actions/artifact` (the results service the runner
 * names in ACTIONS_RESULTS_URL, with its ACTIONS_RUNTIME_TOKEN), one HTML file as is (not zipped), so the link
 * from the check summary and the comment opens the page itself.
 */
import { basename } from "node:path";

/** What uploading a file as an artifact needs; the real one is `actionsArtifactUploader`. */
export interface ArtifactUploader {
  /** Uploads one file, unzipped, named after it; returns the artifact's id. */
  uploadFile(file: string, rootDirectory: string): Promise<number>;
}

/** Artifacts need the runner's results service: a `uses:` step has these, a `run:` step or a local run does not. */
export function artifactsAvailable(env: Record<string, string | undefined>): boolean {
  return Boolean(env.ACTIONS_RUNTIME_TOKEN && env.ACTIONS_RESULTS_URL);
}

/** `@actions/artifact`, loaded on first use (its HTTP and blob stack is not needed before the report exists). */
export const actionsArtifactUploader: ArtifactUploader = {
  async uploadFile(file, rootDirectory) {
    const { DefaultArtifactClient } = await import("@actions/artifact");
    const r = await new DefaultArtifactClient().uploadArtifact(basename(file), [file], rootDirectory, {
      skipArchive: true,
    });
    if (r.id === undefined) throw new Error("the results service returned no artifact id");
    return r.id;
  },
};

/** The artifact's page: `https://github.com/<owner>/<repo>/actions/runs/<run>/artifacts/<id>`. */
export function artifactUrl(
  ctx: { serverUrl: string; owner: string; repo: string; runId?: string },
  id: number,
): string | undefined {
  if (!ctx.runId) return undefined;
  return `${ctx.serverUrl.replace(/\/+$/, "")}/${ctx.owner}/${ctx.repo}/actions/runs/${ctx.runId}/artifacts/${id}`;
}
