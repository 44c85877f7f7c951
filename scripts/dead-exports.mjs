// Exports that no other file of the program references, found with TypeScript's own findReferences over the
// files of tsconfig.json (src, gates, test, bench, scripts). Usage: node scripts/dead-exports.mjs [folder…]
// (default: src gates). Fixtures and tests are not looked at; a gate's probe `collector` is found by value at
// run time (src/sandbox/child.ts), so it is listed apart. What TypeScript does not see counts as unreferenced and
// needs a look before un-exporting: names in generated code (child-build.mjs's entries), in .mjs scripts outside
// tsconfig (scripts/bundle.mjs) or in docs.
import { relative, resolve, sep } from "node:path";
import ts from "typescript";

const root = resolve(import.meta.dirname, "..");
const folders = (process.argv.length > 2 ? process.argv.slice(2) : ["src", "gates"]).map((f) =>
  resolve(root, f),
);
const config = ts.getParsedCommandLineOfConfigFile(
  resolve(root, "tsconfig.json"),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  },
);
const files = config.fileNames;
const service = ts.createLanguageService(
  {
    getScriptFileNames: () => files,
    getScriptVersion: () => "1",
    getScriptSnapshot: (f) => {
      const text = ts.sys.readFile(f);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => config.options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  },
  ts.createDocumentRegistry(),
);
const program = service.getProgram();
const checker = program.getTypeChecker();
const looked = files.filter(
  (f) =>
    folders.some((d) => f.startsWith(d + sep)) &&
    !f.includes(`${sep}fixtures${sep}`) &&
    !/\.test\.ts$/.test(f),
);
let count = 0;
for (const file of looked) {
  const module = checker.getSymbolAtLocation(program.getSourceFile(file));
  for (const exported of module ? checker.getExportsOfModule(module) : []) {
    const decl = exported.declarations?.[0];
    if (!decl) continue;
    const at = exported.flags & ts.SymbolFlags.Alias ? decl.getStart() : (decl.name ?? decl).getStart();
    const refs = (service.findReferences(decl.getSourceFile().fileName, at) ?? []).flatMap(
      (r) => r.references,
    );
    if (refs.some((r) => r.fileName !== file)) continue;
    const runtime =
      exported.name === "collector" && file.endsWith(`${sep}probe.ts`) ? " (found at run time)" : "";
    console.log(`${relative(root, file)}\t${ts.SyntaxKind[decl.kind]}\t${exported.name}${runtime}`);
    if (!runtime) count++;
  }
}
console.error(`${count} export(s) no other file of the program references`);
