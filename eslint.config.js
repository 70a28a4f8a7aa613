import js from "@eslint/js";
import tseslint from "typescript-eslint";

const TEST_ONLY = { group: ["**/tests/**", "msw", "msw/*"], message: "The app never imports test code." };
const SERVER_ONLY = {
  group: ["*.server", "**/*.server", "node:*"],
  message: "Server-only modules stay out of components and the pure search domain.",
};

export default tseslint.config(
  { ignores: ["build/", "public/build/", "node_modules/", "test-results/", "playwright-report/", ".cache/", "tmp-*", "bench/out/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: "readonly", process: "readonly", URL: "readonly", setTimeout: "readonly" } },
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
);
