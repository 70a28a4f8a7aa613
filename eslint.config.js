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
/** Components: presentation that may end up in the browser, drawn with @remix-run/react. */
const PURE_COMPONENTS = ["app/components/**/!(*.server).{ts,tsx}"];
/** The pure modules below the components: everything there not named `*.server`, plain TypeScript. */
const PURE_DOMAIN = ["embed", "export", "search", "auth", "signals", "lib"].map((dir) => `app/${dir}/**/!(*.server).{ts,tsx}`);
/** Modules that may end up in the browser or in the pure domain: everything not named `*.server`. */
const PURE = [...PURE_COMPONENTS, ...PURE_DOMAIN];
/** The one module that reads the environment. */
const CONFIG = "app/config.server.ts";

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
const REMIX_SERVER = {
  group: ["@remix-run/*", "!@remix-run/react"],
  message: "Components draw with @remix-run/react only: Remix's server side belongs in app/web and app/routes.",
};
/** The same refusals for `import("…")`, which no-restricted-imports does not see. */
const dynamicImportOf = (source, { message }) => ({ selector: `ImportExpression[source.value=${source}]`, message });
const NODE_DYNAMIC = dynamicImportOf("/^node:/", NODE);
const REMIX_DYNAMIC = dynamicImportOf("/^@remix-run\\x2F/", REMIX);
const REMIX_SERVER_DYNAMIC = dynamicImportOf("/^@remix-run\\x2F(?!react$)/", REMIX_SERVER);
const ENV_MESSAGE = `Configuration is read once, in ${CONFIG}.`;
/** The browser journeys' fixture, which fails a test on an error in the browser's console it did not expect. */
const E2E_FIXTURES = "tests/e2e/fixtures.ts";
const PLAYWRIGHT_TEST_MESSAGE = `Journeys take \`test\` and \`expect\` from ./fixtures (${E2E_FIXTURES}), whose test fails on an unexpected error in the browser's console; types may come from @playwright/test.`;
/** `test` from @playwright/test, by name, as its default export or in a namespace import. */
const NO_PLAYWRIGHT_TEST = { name: "@playwright/test", importNames: ["test", "default"], message: PLAYWRIGHT_TEST_MESSAGE };
const PLAYWRIGHT_TEST_DYNAMIC = dynamicImportOf("/^@playwright\\x2Ftest$/", { message: PLAYWRIGHT_TEST_MESSAGE });
/** What the import and environment rules say, for tests/lint. */
export const REFUSALS = { node: NODE.message, remix: REMIX.message, remixServer: REMIX_SERVER.message, env: ENV_MESSAGE, playwrightTest: PLAYWRIGHT_TEST_MESSAGE };
const NO_PROCESS_ENV = { object: "process", property: "env", message: ENV_MESSAGE };
/** `import { env } from "node:process"`, the other spelling of process.env. */
const NO_ENV_IMPORT = ["process", "node:process"].map((name) => ({ name, importNames: ["env"], message: ENV_MESSAGE }));
/** The options of no-restricted-imports: every module of the app refuses test code and the environment's import, plus `patterns`. */
const restrictedImports = (...patterns) => ["error", { paths: NO_ENV_IMPORT, patterns: [TEST_PACKAGES, ...patterns] }];
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
    // Every browser journey runs with the console guard of tests/e2e/fixtures.ts: none takes Playwright's own `test`.
    files: ["tests/e2e/**/*.ts"],
    ignores: [E2E_FIXTURES],
    rules: {
      "no-restricted-imports": ["error", { paths: [NO_PLAYWRIGHT_TEST] }],
      "no-restricted-syntax": ["error", NO_INNER_HTML, PLAYWRIGHT_TEST_DYNAMIC],
    },
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
      "no-restricted-imports": restrictedImports(),
    },
  },
  {
    // Configuration is read once, in one module (STYLE.md "Validate once, at the boundary"): no
    // other module of the app reads the environment (decision 044).
    files: ["app/**/*.{ts,tsx}"],
    ignores: [...TEST_FILES, CONFIG],
    rules: { "no-restricted-properties": ["error", NO_PROCESS_ENV] },
  },
  {
    files: [CONFIG],
    rules: { "no-restricted-imports": ["error", { patterns: [TEST_PACKAGES] }] },
  },
  {
    // Small functions (issue 30): none in the app over 80 lines of code, blank lines and comments
    // not counted.
    files: ["app/**/*.{ts,tsx}"],
    ignores: TEST_FILES,
    rules: { "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // The search domain knows no framework, not even in its server modules.
    files: ["app/search/**/*.server.{ts,tsx}"],
    ignores: TEST_FILES,
    rules: { "no-restricted-imports": restrictedImports(REMIX), "no-restricted-syntax": ["error", NO_INNER_HTML, REMIX_DYNAMIC] },
  },
  {
    // Components stay free of Node and of Remix's server side.
    files: PURE_COMPONENTS,
    ignores: TEST_FILES,
    rules: {
      "no-restricted-imports": restrictedImports(NODE, REMIX_SERVER),
      "no-restricted-syntax": ["error", NO_INNER_HTML, NODE_DYNAMIC, REMIX_SERVER_DYNAMIC],
    },
  },
  {
    // The pure modules are plain TypeScript: no Node, no Remix.
    files: PURE_DOMAIN,
    ignores: TEST_FILES,
    rules: {
      "no-restricted-imports": restrictedImports(NODE, REMIX),
      "no-restricted-syntax": ["error", NO_INNER_HTML, NODE_DYNAMIC, REMIX_DYNAMIC],
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
        NODE_DYNAMIC,
        REMIX_DYNAMIC,
        {
          selector: "Program > :not(ImportDeclaration, ExportNamedDeclaration[declaration.type='FunctionDeclaration'], ExportNamedDeclaration[declaration.type=/^TS/], TSInterfaceDeclaration, TSTypeAliasDeclaration)",
          message: "The widgets' script is this module's exported functions: export the function, or move the value into one or into the settings.",
        },
      ],
    },
  },
);
