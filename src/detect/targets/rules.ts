/**
 * What each target (a client that loads, lists or accepts skills) does with a skill, with the public source of
 * each rule. docs/formats.md ("Targets") prints these tables; test/detect/targets.test.ts has a test per rule.
 */
import type { Target } from "../../model/index.js";

export const SOURCES = {
  claudeCodeSkills: "https://code.claude.com/docs/en/skills",
  claudeUpload: "https://github.com/anthropics/claude-code/issues/24826",
  codexSkills: "https://developers.openai.com/codex/skills",
  codexLoader: "https://github.com/openai/codex/blob/main/codex-rs/core/src/skills/loader.rs",
  codexRender: "https://github.com/openai/codex/blob/main/codex-rs/core/src/skills/render.rs",
  codexPlugins: "https://developers.openai.com/codex/plugins/build",
  copilotSkills: "https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/create-skills",
  geminiSkills: "https://geminicli.com/docs/cli/skills",
  ghSkillPublish: "https://man.archlinux.org/man/extra/github-cli/gh-skill-publish.1.en",
  allowedToolsType: "https://github.com/agentskills/agentskills/issues/144",
  agentPlugins: "https://github.com/agentplugins/agent-plugins-spec",
} as const;

/** The six keys claude.ai's upload and the Skills API accept; any other key is "unexpected key in SKILL.md frontmatter". */
export const UPLOAD_KEYS = [
  "name",
  "description",
  "license",
  "allowed-tools",
  "compatibility",
  "metadata",
] as const;

/** Claude Code lists `description` + `when_to_use` up to this many characters. */
export const CLAUDE_CODE_LISTING_MAX = 1536;

/** Codex does not load a skill whose (whitespace-collapsed) name or description is longer (loader.rs). */
export const CODEX_NAME_MAX = 64;
export const CODEX_DESCRIPTION_MAX = 1024;

/**
 * Codex's skill list when it does not know the model's context window (else about 2 % of the window, which for
 * the models it ships with is larger): entries past it are shortened or left out of what the model routes by.
 */
export const CODEX_CATALOGUE_CHARS = 8000;

/** `gh skill publish` reads the strict agentskills.io name rule. */
export const STRICT_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * Project skills folders, and the targets that read each (a folder of that name at any depth: Claude Code reads
 * nested `.claude/skills`, Codex `.agents/skills` from the working folder up to the repository root).
 */
export const SKILL_FOLDERS: readonly { folder: string; readers: readonly Target[] }[] = [
  { folder: ".claude/skills", readers: ["claude-code", "copilot"] },
  { folder: ".agents/skills", readers: ["codex", "copilot", "gemini"] },
  { folder: ".github/skills", readers: ["copilot"] },
  { folder: ".gemini/skills", readers: ["gemini"] },
];

/** What `gh skill publish` discovers (its manual): the paths of the SKILL.md files it publishes. */
export const GH_SKILL_LAYOUTS: readonly RegExp[] = [
  /^skills\/[^/]+\/SKILL\.md$/,
  /^skills\/[^/]+\/[^/]+\/SKILL\.md$/,
  /^[^/]+\/SKILL\.md$/,
  /^plugins\/[^/]+\/skills\/[^/]+\/SKILL\.md$/,
];

/** Targets that read skills from folders of a checkout (an upload or a publish is not one). */
export const FOLDER_READERS: readonly Target[] = ["claude-code", "codex", "copilot", "gemini"];

export const TARGET_TITLES: Readonly<Record<Target, string>> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  copilot: "GitHub Copilot",
  gemini: "Gemini CLI",
  "claude-api": "claude.ai upload / Skills API",
  "gh-skill": "gh skill publish",
};
