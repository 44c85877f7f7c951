/**
 * The layers of docs/ARCHITECTURE.md, checked (`npm run lint:layers`, and test/architecture/layers.test.ts in
 * `npm test`). A module may import its own layer and the layers below it, never one above: the pipeline's stages in
 * their order (detect → plan → run → grade → attribute → verdict → report), the shared records and helpers under
 * them, the orchestrators (harvest, pipeline, github, the entry points) over them. No arrow back up is excused.
 */

/** Bottom to top. A layer is a list of path patterns (regular expressions over paths from the repository root). */
const LAYERS = [
  ["^src/model/"],
  ["^src/util/", "^src/version\\.ts$"],
  ["^src/sandbox/"],
  // What a trial's processes did (strace, decoys): read by the agents that run it and the verdict that judges it.
  ["^src/observe/"],
  // The static review of what a PR adds to a skill folder: read by the pipeline and the reports.
  ["^src/review/"],
  ["^gates/"],
  ["^src/detect/"],
  ["^src/settings/"],
  ["^src/plan/"],
  ["^src/agents/"],
  ["^src/run/"],
  ["^src/grade/"],
  ["^src/attribute/"],
  ["^src/verdict/"],
  ["^src/report/"],
  ["^src/harvest/"],
  ["^src/pipeline/", "^src/pipeline\\.ts$"],
  ["^src/github/"],
  ["^src/cli/", "^src/cli\\.ts$", "^src/main\\.ts$", "^src/post\\.ts$"],
];

const alt = (patterns) => `(${patterns.join("|")})`;

/** For each layer, every layer above it is forbidden to it. */
const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `no-upward-from-${layer[0].replace(/[^a-z]/g, "") || "root"}`,
  comment: "A module imports its own layer or the ones below it (docs/ARCHITECTURE.md).",
  severity: "error",
  from: { path: alt(layer), pathNot: "\\.test\\.ts$" },
  to: { path: alt(LAYERS.slice(i + 1).flat()) },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: "actions-only-at-the-edge",
      comment: "@actions/* is GitHub I/O: only src/github/ and the Action's entry points import it.",
      severity: "error",
      from: { path: "^(src|gates)/", pathNot: "^src/(github/|main\\.ts$|post\\.ts$)" },
      to: { path: "node_modules/@actions/" },
    },
    {
      name: "no-circular",
      comment: "Type-only imports aside, no import circles (test/architecture/import-circles.test.ts says why).",
      severity: "error",
      from: { path: "^(src|gates)/" },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)dist/|\\.test\\.ts$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
