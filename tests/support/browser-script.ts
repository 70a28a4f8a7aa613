import ts from "typescript";

const FILE = "/script.js";
/** What a browser gives a script: the language and the DOM, nothing of Node. */
const OPTIONS: ts.CompilerOptions = {
  allowJs: true,
  checkJs: true,
  noEmit: true,
  strict: false,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  types: [],
};

/**
 * The names a browser script uses that neither it nor the browser defines, each with its line:
 * what would throw a ReferenceError when that line runs. Read by TypeScript, so lines that a test
 * never runs are read too. Also any syntax error.
 */
export function unknownNames(script: string): string[] {
  const host = ts.createCompilerHost(OPTIONS);
  const source = ts.createSourceFile(FILE, script, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, ...rest) => (name === FILE ? source : getSourceFile(name, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === FILE || fileExists(name);
  const program = ts.createProgram([FILE], OPTIONS, host);
  const text = (d: ts.Diagnostic) => ts.flattenDiagnosticMessageText(d.messageText, "\n");
  const syntax = program.getSyntacticDiagnostics(source);
  const names = program.getSemanticDiagnostics(source).filter((d) => text(d).startsWith("Cannot find name"));
  return [...syntax, ...names].map((d) => `line ${source.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ${text(d)}`);
}
