/**
 * Parent side: a probed function's parameters as declared in its source text (the `source` the child's shape
 * probe returned), parsed with @babel/parser and never run. `fn.length` stops at the first parameter with a
 * default value; this counts them all, so `f(a, b = 0)` has two parameters, the second defaulted.
 */
import { parse } from "@babel/parser";

interface DeclaredParams {
  /** Parameters before any rest parameter. */
  count: number;
  /** Per parameter: whether it has a default value (so `undefined` or leaving it out is a valid call). */
  defaults: boolean[];
  /** Whether a rest parameter follows. */
  rest: boolean;
}

interface Node {
  type: string;
  [k: string]: unknown;
}

/** The function node of a parsed wrapper: `(source)`, `({source})` (a method), `(class {source})`. */
function functionNode(source: string): Node | undefined {
  const attempts: [string, (program: Node) => Node | undefined][] = [
    [`(${source}\n)`, (p) => expressionOf(p)],
    [
      `({${source}\n})`,
      (p) => {
        const obj = expressionOf(p);
        const props = obj?.properties as Node[] | undefined;
        return props?.length === 1 && props[0]?.type === "ObjectMethod" ? props[0] : undefined;
      },
    ],
    [
      `(class {${source}\n})`,
      (p) => {
        const body = (expressionOf(p)?.body as Node | undefined)?.body as Node[] | undefined;
        return body?.length === 1 && body[0]?.type === "ClassMethod" ? body[0] : undefined;
      },
    ],
  ];
  for (const [text, pick] of attempts) {
    let program: Node;
    try {
      program = parse(text, { sourceType: "module", errorRecovery: false }).program as unknown as Node;
    } catch {
      continue;
    }
    const fn = pick(program);
    if (fn) return fn;
  }
  return undefined;
}

function expressionOf(program: Node): Node | undefined {
  const body = program.body as Node[];
  if (body.length !== 1 || body[0]?.type !== "ExpressionStatement") return undefined;
  return body[0].expression as Node;
}

const FUNCTIONS = new Set(["FunctionExpression", "ArrowFunctionExpression", "ObjectMethod", "ClassMethod"]);

/** The declared parameters, or undefined when the source is not a readable function (native, bound, class). */
export function declaredParams(source: string | null): DeclaredParams | undefined {
  if (source === null || source.length === 0) return undefined;
  const fn = functionNode(source);
  if (!fn || !FUNCTIONS.has(fn.type) || !Array.isArray(fn.params)) return undefined;
  const params = fn.params as Node[];
  const rest = params.length > 0 && params[params.length - 1]?.type === "RestElement";
  const fixed = rest ? params.slice(0, -1) : params;
  return { count: fixed.length, defaults: fixed.map((p) => p.type === "AssignmentPattern"), rest };
}
