import js from "@eslint/js";
import tseslint from "typescript-eslint";

const TEST_ONLY = { group: ["**/tests/**", "msw", "msw/*"], message: "The app never imports test code." };
const SERVER_ONLY = {
  group: ["*.server", "**/*.server", "node:*"],
  message: "Server-only modules stay out of components and the pure search domain.",
};

// The layers of DESIGN.md: imports point down routes → web → registry → search, export, signals →
// components → lib, and only the composition root knows the concrete engines.
const UPPER_LAYERS = {
  group: ["~/routes/*", "~/web/*", "~/registry.server", "~/start-up.server", "~/entry.*", "~/root"],
  message: "Lower layers never import the web layer, the routes or the composition root.",
};
const REMIX = { group: ["@remix-run/*"], message: "The domain is pure TypeScript: Remix belongs in app/web and app/routes." };
const CONFIG = { group: ["~/config.server", "**/config.server"], message: "Settings reach the domain as arguments, through the composition root." };
const ENGINES = {
  group: ["~/search/engines/*/**", "./engines/*/**", "../engines/*/**"],
  message: "Only the composition root (app/registry.server.ts) knows the concrete engines.",
};
const APP = { group: ["~/*", "../*", "./*/**"], message: "app/lib is generic: it imports nothing of the app." };
const NO_PROCESS_ENV = { object: "process", property: "env", message: "Configuration is read once, in app/config.server.ts." };

/** One engine never reaches into another's folder: what they share lives in app/search. */
const otherEngines = (self) => ({
  group: ["fusion", "embedded", "backend"].filter((e) => e !== self).map((e) => `../${e}/*`),
  message: "Engines share code through the domain (app/search), not through each other.",
});

export default tseslint.config(
  { ignores: ["build/", "public/build/", "node_modules/", "test-results/", "playwright-report/", ".cache/", "tmp-*", "bench/out/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: "readonly", process: "readonly", URL: "readonly", setTimeout: "readonly", clearTimeout: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-restricted-syntax": [
        "error",
        { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: "Engine text is data: render it as text." },
      ],
    },
  },
  {
    // Tests read loosely typed JSON bodies.
    files: ["**/*.test.ts", "**/*.test.tsx", "tests/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Test doubles and test helpers are never imported by the app.
    files: ["app/**"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: { "no-restricted-imports": ["error", { patterns: [TEST_ONLY] }] },
  },
  {
    // Components and the pure search domain never reach server-only code.
    files: ["app/components/**", "app/search/*.ts", "app/search/engines/**/*.ts"],
    ignores: ["**/*.server.ts", "**/*.test.ts", "**/*.test.tsx"],
    rules: { "no-restricted-imports": ["error", { patterns: [TEST_ONLY, SERVER_ONLY] }] },
  },
  {
    files: ["app/search/**"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [TEST_ONLY, UPPER_LAYERS, REMIX, CONFIG] }],
      "no-restricted-properties": ["error", NO_PROCESS_ENV],
    },
  },
  {
    // The pure domain's top level, with the engine rule on top.
    files: ["app/search/*.ts"],
    ignores: ["**/*.server.ts", "**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [TEST_ONLY, SERVER_ONLY, UPPER_LAYERS, REMIX, CONFIG, ENGINES] }] },
  },
  ...["fusion", "embedded", "backend"].flatMap((engine) => [
    {
      files: [`app/search/engines/${engine}/**`],
      ignores: ["**/*.test.ts"],
      rules: { "no-restricted-imports": ["error", { patterns: [TEST_ONLY, UPPER_LAYERS, REMIX, CONFIG, otherEngines(engine)] }] },
    },
    {
      // An engine's pure parts (query building, parsing rules) stay free of server-only code.
      files: [`app/search/engines/${engine}/**/*.ts`],
      ignores: ["**/*.server.ts", "**/*.test.ts"],
      rules: {
        "no-restricted-imports": ["error", { patterns: [TEST_ONLY, SERVER_ONLY, UPPER_LAYERS, REMIX, CONFIG, otherEngines(engine)] }],
      },
    },
  ]),
  {
    files: ["app/export/**", "app/signals/**"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [TEST_ONLY, UPPER_LAYERS, ENGINES] }] },
  },
  {
    files: ["app/components/**"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: { "no-restricted-imports": ["error", { patterns: [TEST_ONLY, SERVER_ONLY, UPPER_LAYERS, ENGINES] }] },
  },
  {
    files: ["app/web/**", "app/routes/**", "app/root.tsx", "app/entry.server.tsx", "app/start-up.server.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [TEST_ONLY, ENGINES] }] },
  },
  {
    files: ["app/lib/**"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [TEST_ONLY, APP] }] },
  },
);
