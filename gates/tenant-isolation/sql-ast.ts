/**
 * Static check: SQL text built by a template literal with expressions or by `+` concatenation (or
 * `.concat`) that reaches a query call — as the call's first argument directly, or through a variable
 * declared or assigned (`=`, `+=`) that way anywhere in the module. Tagged templates (sql`…`) are the safe,
 * parameterised form and are not flagged.
 */
import { parse } from "@babel/parser";

/** Method or function names that send SQL text to a database. */
const QUERY_CALLEES = new Set([
  "query",
  "exec",
  "execute",
  "run",
  "all",
  "get",
  "prepare",
  "raw",
  "unsafe",
  "each",
  "queryRaw",
  "executeRaw",
  "$queryRawUnsafe",
  "$executeRawUnsafe",
]);

interface Node {
  type: string;
  loc?: { start: { line: number; column: number } };
  [k: string]: unknown;
}

interface SqlFinding {
  line: number;
  column: number;
  message: string;
}

function isNode(v: unknown): v is Node {
  return typeof v === "object" && v !== null && typeof (v as Node).type === "string";
}

function walk(node: Node, visit: (n: Node) => void): void {
  visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === "loc" || key === "start" || key === "end" || key === "extra") continue;
    if (Array.isArray(value)) for (const v of value) isNode(v) && walk(v, visit);
    else if (isNode(value)) walk(value, visit);
  }
}

function containsString(n: Node): boolean {
  let found = false;
  walk(n, (x) => {
    if (x.type === "StringLiteral" || x.type === "TemplateLiteral") found = true;
  });
  return found;
}

/** Why an expression builds SQL unsafely, or undefined. */
function unsafeBuild(n: Node): string | undefined {
  if (n.type === "TemplateLiteral" && Array.isArray(n.expressions) && n.expressions.length > 0)
    return `a template literal with ${n.expressions.length} interpolated expression(s)`;
  if (n.type === "BinaryExpression" && n.operator === "+" && containsString(n))
    return "string concatenation with +";
  if (n.type === "CallExpression" && isNode(n.callee) && n.callee.type === "MemberExpression") {
    const prop = n.callee.property as Node;
    if (prop?.type === "Identifier" && prop.name === "concat" && containsString(n))
      return "String.prototype.concat";
  }
  if (
    (n.type === "TSAsExpression" ||
      n.type === "TSNonNullExpression" ||
      n.type === "ParenthesizedExpression") &&
    isNode(n.expression)
  )
    return unsafeBuild(n.expression);
  return undefined;
}

function calleeName(callee: Node): string | undefined {
  if (callee.type === "Identifier") return callee.name as string;
  if (callee.type === "MemberExpression" || callee.type === "OptionalMemberExpression") {
    const p = callee.property as Node;
    if (p.type === "Identifier") return p.name as string;
    if (p.type === "StringLiteral") return p.value as string;
  }
  return undefined;
}

export function findInterpolatedSql(source: string, file: string): SqlFinding[] | { parseError: string } {
  let ast: Node;
  try {
    const isTs = /\.[cm]?tsx?$/i.test(file);
    ast = parse(source, {
      sourceType: "unambiguous",
      errorRecovery: true,
      plugins: isTs ? ["typescript", ...(/x$/i.test(file) ? (["jsx"] as const) : [])] : ["jsx"],
    }) as unknown as Node;
  } catch (err) {
    const e = err as { loc?: { line: number; column: number }; message: string };
    return { parseError: `${file}:${e.loc?.line ?? 1}:${(e.loc?.column ?? 0) + 1}: ${e.message}` };
  }
  // Variables (by name) ever given an unsafely built value, or grown with +=.
  const tainted = new Map<string, string>();
  const stringVars = new Set<string>();
  walk(ast, (n) => {
    if (n.type === "VariableDeclarator" && isNode(n.id) && n.id.type === "Identifier" && isNode(n.init)) {
      if (n.init.type === "StringLiteral" || n.init.type === "TemplateLiteral")
        stringVars.add(n.id.name as string);
      const why = unsafeBuild(n.init);
      if (why) tainted.set(n.id.name as string, why);
    }
  });
  walk(ast, (n) => {
    if (
      n.type === "AssignmentExpression" &&
      isNode(n.left) &&
      n.left.type === "Identifier" &&
      isNode(n.right)
    ) {
      const grows = n.operator === "+=" && (containsString(n.right) || stringVars.has(n.left.name as string));
      const why = grows ? "string concatenation with +=" : unsafeBuild(n.right);
      if (why) tainted.set(n.left.name as string, why);
    }
  });
  const findings: SqlFinding[] = [];
  walk(ast, (n) => {
    if (n.type !== "CallExpression" && n.type !== "OptionalCallExpression") return;
    const name = isNode(n.callee) ? calleeName(n.callee) : undefined;
    const arg = (n.arguments as Node[] | undefined)?.[0];
    if (!name || !QUERY_CALLEES.has(name) || !isNode(arg)) return;
    const direct = unsafeBuild(arg);
    const via = arg.type === "Identifier" ? tainted.get(arg.name as string) : undefined;
    const why = direct ?? (via ? `variable '${arg.name as string}' built by ${via}` : undefined);
    if (!why) return;
    const at = arg.loc?.start ?? n.loc?.start ?? { line: 1, column: 0 };
    findings.push({
      line: at.line,
      column: at.column + 1,
      message: `SQL passed to ${name}() is ${why}; use bound parameters`,
    });
  });
  return findings;
}
