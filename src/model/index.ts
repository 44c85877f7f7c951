export * from "./agent.js";
export * from "./check.js";
export * from "./diagnostics.js";
export * from "./report.js";
export * from "./settings.js";
export * from "./skill.js";
export * from "./suite.js";
export * from "./trial.js";
