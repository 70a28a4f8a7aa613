import js from "@eslint/js";
import importPlugin from "eslint-plugin-import";
import tseslint from "typescript-eslint";

// The layers of DESIGN.md, top to bottom, as files (globs from the repository's root). A module may
// import from its own layer and from the layers below it, never from one above: the rules below
// resolve every import (relative, `~/`, `import type`, `import()`) to the file it reaches and check
// that file's layer, so no spelling gets past them. Every module of app/ belongs to one layer
// (tests/lint/layers.test.ts checks that too).
export const LAYERS = [
  { name: "routes", files: ["app/routes/**", "app/{root,entry.server,entry.client}.tsx"] },
  { name: "web", files: ["app/web/**"] },
  { name: "composition root", files: ["app/{registry,start-up,config}.server.ts"] },
  { name: "components", files: ["app/components/**"] },
  { name: "embed", files: ["app/embed/**"] },
  { name: "export", files: ["app/export/**"] },
  { name: "search", files: ["app/search/**"] },
  { name: "auth", files: ["app/auth/**"] },
  { name: "signals", files: ["app/signals/**"] },
  { name: "lib", files: ["app/lib/**"] },
];

const ENGINE_NAMES = ["fusion", "embedded", "backend"];
const ENGINES = "app/search/engines/**";
/** Every module of app/ but the composition root (app/registry.server.ts) and the engines themselves. */
const ABOVE_AND_BESIDE_ENGINES = [
  "app/routes/**",
  "app/{root,entry.server,entry.client}.tsx",
  "app/web/**",
  "app/{start-up,config}.server.ts",
  ...["components", "embed", "export", "auth", "signals", "lib"].map((dir) => `app/${dir}/**`),
  "app/search/*",
  "app/search/!(engines)/**",
];
/** Modules that may end up in the browser or in the pure domain: everything not named `*.server`. */
const PURE = ["components", "embed", "export", "search", "auth", "signals", "lib"].map((dir) => `app/${dir}/**/!(*.server).{ts,tsx}`);

export const ZONES = [
  ...LAYERS.slice(1).map((layer, index) => ({
    target: layer.files,
    from: LAYERS.slice(0, index + 1).flatMap((above) => above.files),
    message: `${layer.name} sits below ${LAYERS.slice(0, index + 1).map((above) => above.name).join(", ")} in DESIGN.md's layers: imports point down.`,
  })),
  {
    target: ABOVE_AND_BESIDE_ENGINES,
    from: [ENGINES],
    message: "Only the composition root (app/registry.server.ts) knows the concrete engines.",
  },
  ...ENGINE_NAMES.map((engine) => ({
    target: [`app/search/engines/${engine}/**`],
    from: ENGINE_NAMES.filter((other) => other !== engine).map((other) => `app/search/engines/${other}/**`),
    message: "Engines share code through the domain (app/search), not through each other.",
  })),
  {
    target: PURE,
    from: ["app/**/*.server.{ts,tsx}"],
    message: "Server-only modules stay out of components and the pure modules (STYLE.md).",
  },
  {
    target: ["app/**"],
    from: ["tests/**"],
    message: "The app never imports test code.",
  },
];

const TEST_FILES = ["**/*.test.ts", "**/*.test.tsx"];
const TEST_PACKAGES = { group: ["msw", "msw/*"], message: "The app never imports test code." };
const NODE = { group: ["node:*"], message: "Node's modules belong in *.server.ts modules." };
const REMIX = { group: ["@remix-run/*"], message: "The domain is pure TypeScript: Remix belongs in app/web and app/routes." };
const NO_PROCESS_ENV = { object: "process", property: "env", message: "Configuration is read once, in app/config.server.ts." };
const NO_INNER_HTML = { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: "Engine text is data: render it as text." };
/** The module whose functions' text is the widgets' script (docs/decisions/034). */
const WIDGETS_SCRIPT = "app/embed/widgets.ts";

export default tseslint.config(
  { ignores: ["build/", "public/build/", "node_modules/", "test-results/", "playwright-report/", ".cache/", "tmp-*", "bench/out/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: "readonly", process: "readonly", URL: "readonly", setTimeout: "readonly", clearTimeout: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-restricted-syntax": ["error", NO_INNER_HTML],
    },
  },
  {
    // Tests read loosely typed JSON bodies.
    files: ["**/*.test.ts", "**/*.test.tsx", "tests/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // The layers, over resolved files; and no circle of imports anywhere in the app.
    files: ["app/**/*.{ts,tsx}"],
    ignores: TEST_FILES,
    plugins: { import: importPlugin },
    settings: {
      "import/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import/resolver": { typescript: { project: "tsconfig.json" }, node: true },
    },
    rules: {
      "import/no-unresolved": ["error", { ignore: ["\\.css$"] }],
      "import/no-restricted-paths": ["error", { zones: ZONES }],
      "import/no-cycle": "error",
      "no-restricted-imports": ["error", { patterns: [TEST_PACKAGES] }],
    },
  },
  {
    // Small functions (issue 30): none in the app over 80 lines of code, blank lines and comments
    // not counted.
    files: ["app/**/*.{ts,tsx}"],
    ignores: TEST_FILES,
    rules: { "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Components and the pure modules stay free of Node.
    files: PURE,
    ignores: TEST_FILES,
    rules: { "no-restricted-imports": ["error", { patterns: [TEST_PACKAGES, NODE] }] },
  },
  {
    // The search domain knows no framework and no environment.
    files: ["app/search/**"],
    ignores: TEST_FILES,
    rules: {
      "no-restricted-imports": ["error", { patterns: [TEST_PACKAGES, REMIX] }],
      "no-restricted-properties": ["error", NO_PROCESS_ENV],
    },
  },
  {
    // The widgets' script is the text of this module's exported functions, sent as they are: what
    // sits outside them (a constant, a value imported from another module) would not travel with
    // them, so the module holds exported functions and types only and imports types only.
    files: [WIDGETS_SCRIPT],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ regex: ".", allowTypeImports: true, message: "The widgets' script takes values as settings (app/web/embed-widgets.server.ts); import types only." }] },
      ],
      "no-restricted-syntax": [
        "error",
        NO_INNER_HTML,
        {
          selector: "Program > :not(ImportDeclaration, ExportNamedDeclaration[declaration.type='FunctionDeclaration'], ExportNamedDeclaration[declaration.type=/^TS/], TSInterfaceDeclaration, TSTypeAliasDeclaration)",
          message: "The widgets' script is this module's exported functions: export the function, or move the value into one or into the settings.",
        },
      ],
    },
  },
  {
    files: ["app/search/**/!(*.server).{ts,tsx}"],
    ignores: TEST_FILES,
    rules: { "no-restricted-imports": ["error", { patterns: [TEST_PACKAGES, REMIX, NODE] }] },
  },
);
