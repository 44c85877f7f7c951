import { describe, expect, test } from "vitest";
import { agentEnvFor, buildAgentEnv } from "../../src/agents/env.js";
import { splitShellWords } from "../../src/agents/shell-words.js";

describe("buildAgentEnv", () => {
  const source = {
    PATH: "/usr/bin",
    ANTHROPIC_API_KEY: "k",
    ANTHROPIC_BASE_URL: "http://127.0.0.1:1",
    CLAUDE_CODE_USE_BEDROCK: "0",
    OPENAI_API_KEY: "o",
    GITHUB_TOKEN: "ghs_x",
    AWS_SECRET_ACCESS_KEY: "aws",
    MY_VAR: "mine",
    HOME: "/root",
  };
  test("passes only allowed names and prefixes, sets HOME, never GITHUB_TOKEN even when listed", () => {
    const env = buildAgentEnv({
      allow: ["ANTHROPIC_*", "CLAUDE_CODE_*"],
      extra: ["MY_VAR", "GITHUB_TOKEN", "GITHUB_*"],
      home: "/tmp/h",
      source,
      set: { GITHUB_TOKEN: "again" },
    });
    expect(env).toMatchObject({
      PATH: "/usr/bin",
      ANTHROPIC_API_KEY: "k",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:1",
      CLAUDE_CODE_USE_BEDROCK: "0",
      MY_VAR: "mine",
      HOME: "/tmp/h",
    });
    expect(env.GITHUB_TOKEN).toBeUndefined();
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
  });

  test("names from config are exact: a '*' forwards nothing, and the runner's tokens and inputs never pass", () => {
    const runner = {
      ...source,
      ACTIONS_RUNTIME_TOKEN: "rt",
      ACTIONS_ID_TOKEN_REQUEST_URL: "https://x",
      ACTIONS_CACHE_SERVICE_V2: "true",
      "INPUT_GITHUB-TOKEN": "ghs_y",
      INPUT_ANYTHING: "v",
      GH_ENTERPRISE_TOKEN: "ghe",
    };
    const env = buildAgentEnv({
      allow: [],
      extra: ["*", "AWS_*", ...Object.keys(runner)],
      home: "/h",
      source: runner,
    });
    expect(Object.keys(env).filter((k) => /TOKEN|^ACTIONS_|^INPUT_/.test(k))).toEqual([]);
    const star = buildAgentEnv({ allow: [], extra: ["*", "AWS_*"], home: "/h", source: runner });
    expect(star.AWS_SECRET_ACCESS_KEY).toBeUndefined();
    expect(star.MY_VAR).toBeUndefined();
  });

  test("agentEnvFor: the same scrubbed environment per HOME, each trial its own object", () => {
    const opts = { allow: ["ANTHROPIC_*"], extra: ["MY_VAR", "GITHUB_TOKEN"], source };
    const forHome = agentEnvFor(opts);
    const a = forHome("/tmp/a");
    const b = forHome("/tmp/b");
    expect(a).toEqual(buildAgentEnv({ ...opts, home: "/tmp/a" }));
    expect(b).toEqual(buildAgentEnv({ ...opts, home: "/tmp/b" }));
    expect(a).toMatchObject({
      HOME: "/tmp/a",
      XDG_CONFIG_HOME: "/tmp/a/.config",
      XDG_CACHE_HOME: "/tmp/a/.cache",
    });
    expect(a.GITHUB_TOKEN).toBeUndefined();
    a.MY_VAR = "changed by one trial";
    expect(forHome("/tmp/c").MY_VAR).toBe("mine");
  });
});

describe("splitShellWords", () => {
  test("quotes and escapes", () => {
    expect(splitShellWords(`node "my agent.mjs" --x='a b' c\\ d ""`)).toEqual([
      "node",
      "my agent.mjs",
      "--x=a b",
      "c d",
      "",
    ]);
  });
  test("unterminated quote is a clear error", () => {
    expect(() => splitShellWords(`node "oops`)).toThrow(/unterminated quote/);
    expect(() => splitShellWords(`node 'oops`)).toThrow(/unterminated quote/);
  });
  test("nothing is expanded: variables and globs stay as written", () => {
    expect(splitShellWords(`node $HOME/a.mjs "$X" *.md`)).toEqual(["node", "$HOME/a.mjs", "$X", "*.md"]);
  });
  test("a shell operator is refused: no shell runs the command, so `|` or `>` would be an argument", () => {
    expect(() => splitShellWords("node agent.mjs | tee log")).toThrow(/operator `\|`/);
    expect(() => splitShellWords("node agent.mjs > out")).toThrow(/operator `>`/);
    expect(splitShellWords("node agent.mjs '|'")).toEqual(["node", "agent.mjs", "|"]);
  });
});
