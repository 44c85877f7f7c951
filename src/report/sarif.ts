import type { Report, Root } from "../model/report.js";

/**
 * SARIF 2.1.0 for code scanning: one result per root with its location; new roots are `error` with
 * `baselineState: "new"`, pre-existing ones `warning`/`unchanged`, non-blocking ones `note`.
 * One rule per root kind. Pure: Report → SARIF log object.
 */

const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

export interface SarifLog {
  $schema: string;
  version: "2.1.0";
  runs: SarifRun[];
}

interface SarifRun {
  tool: { driver: { name: string; version: string; informationUri: string; rules: SarifRule[] } };
  results: SarifResult[];
  invocations: {
    executionSuccessful: boolean;
    toolExecutionNotifications: { level: "error"; message: { text: string } }[];
  }[];
  automationDetails?: { id: string };
}

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  defaultConfiguration: { level: "error" | "warning" | "note" };
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: "error" | "warning" | "note";
  message: { text: string };
  locations: {
    physicalLocation: {
      artifactLocation: { uri: string; uriBaseId: string };
      region: { startLine: number; startColumn: number };
    };
  }[];
  baselineState?: "new" | "unchanged";
  partialFingerprints: { skillgateRootId: string };
  properties: Record<string, unknown>;
}

const RULE_TEXT: Record<string, string> = {
  assertion: "An assertion of the skill's eval suite fails",
  trigger: "The skill fires (or stays silent) on the wrong prompts",
  gate: "A deterministic gate rejects code the agent wrote with the skill",
  validation: "SKILL.md or its eval suite is invalid",
  threshold: "A battery threshold from meta.json is not met",
  contamination: "A without-skill baseline trial touched a skill",
  "suite-weakened": "The eval suite was weakened in the same change",
  "suite-tightened": "The eval suite was tightened in the same change (reported, not blocking)",
  lockstep: "Skill and suite versions drifted apart",
  error: "The evaluation could not complete",
};

function levelOf(r: Root): SarifResult["level"] {
  if (r.status === "new" && r.blocking) return "error";
  return r.blocking ? "error" : r.status === "pre-existing" ? "warning" : "note";
}

export function buildSarif(
  report: Report,
  informationUri = "https://github.com/skillgate/skillgate",
): SarifLog {
  const roots = report.skills.flatMap((s) => s.roots);
  const kinds = [...new Set(roots.map((r) => r.kind))].sort();
  const rules: SarifRule[] = kinds.map((k) => ({
    id: `skillgate/${k}`,
    name: k.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase()),
    shortDescription: { text: RULE_TEXT[k] ?? k },
    defaultConfiguration: { level: "error" },
  }));
  const results: SarifResult[] = roots.map((r) => ({
    ruleId: `skillgate/${r.kind}`,
    ruleIndex: kinds.indexOf(r.kind),
    level: levelOf(r),
    message: { text: `${r.title}: ${r.message}` },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: r.file, uriBaseId: "%SRCROOT%" },
          region: { startLine: Math.max(1, r.line), startColumn: Math.max(1, r.column) },
        },
      },
    ],
    baselineState: r.status === "new" ? "new" : r.status === "pre-existing" ? "unchanged" : undefined,
    partialFingerprints: { skillgateRootId: `${r.skill}/${r.id}` },
    properties: {
      skill: r.skill,
      status: r.status,
      blocking: r.blocking,
      head: r.head,
      base: r.base,
      pValue: r.pValue,
    },
  }));
  // New roots first, as in every other output.
  results.sort((a, b) => Number(b.baselineState === "new") - Number(a.baselineState === "new"));
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "skillgate", version: report.tool.version, informationUri, rules } },
        results,
        invocations: [
          {
            executionSuccessful: report.verdict !== "error",
            toolExecutionNotifications: report.errors.map((e) => ({ level: "error", message: { text: e } })),
          },
        ],
        ...(report.shard
          ? { automationDetails: { id: `skillgate/shard-${report.shard.index}-of-${report.shard.total}/` } }
          : {}),
      },
    ],
  };
}

export function renderSarif(report: Report): string {
  return `${JSON.stringify(buildSarif(report), null, 2)}\n`;
}
