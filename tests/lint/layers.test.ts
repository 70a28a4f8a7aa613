import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { minimatch } from "minimatch";
import { afterAll, describe, expect, it } from "vitest";
import { LAYERS, REFUSALS, ZONES } from "../../eslint.config.js";

/**
 * The layer rules of eslint.config.js, tried on imports that go the wrong way and the right way.
 * The importing file is made up (lintText with a path in the layer); the imported one is a real
 * module, since the rules judge the file an import resolves to, whatever its spelling.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
// no-cycle needs the importing file on disk; it has its own test below with files that are.
const eslint = new ESLint({ cwd: ROOT, overrideConfig: { rules: { "import/no-cycle": "off" } } });

/** A real module of each layer, and where a made-up module of that layer sits. */
const SAMPLES: Record<string, { module: string; fixture: string }> = {
  routes: { module: "app/root.tsx", fixture: "app/routes/lint-fixture.tsx" },
  web: { module: "app/web/failure-log.server.ts", fixture: "app/web/lint-fixture.server.ts" },
  "composition root": { module: "app/registry.server.ts", fixture: "app/start-up.server.ts" },
  components: { module: "app/components/pager.tsx", fixture: "app/components/lint-fixture.tsx" },
  embed: { module: "app/embed/widgets.ts", fixture: "app/embed/lint-fixture.ts" },
  export: { module: "app/export/csv.ts", fixture: "app/export/lint-fixture.ts" },
  search: { module: "app/search/state.ts", fixture: "app/search/lint-fixture.ts" },
  auth: { module: "app/auth/user.ts", fixture: "app/auth/lint-fixture.ts" },
  signals: { module: "app/signals/browser.client.ts", fixture: "app/signals/lint-fixture.ts" },
  lib: { module: "app/lib/memo.ts", fixture: "app/lib/lint-fixture.ts" },
};

type Spelling = "relative" | "tilde" | "type" | "dynamic";

type Form = "static" | "type" | "dynamic" | "re-export";

/** A module that imports `specifier` in one of the forms code uses. */
function moduleImporting(specifier: string, form: Form = "static"): string {
  switch (form) {
    case "static":
      return `import * as m from "${specifier}";\nexport const used = m;\n`;
    case "type":
      return `import type * as m from "${specifier}";\nexport type Used = typeof m;\n`;
    case "dynamic":
      return `export const load = () => import("${specifier}");\n`;
    case "re-export":
      return `export * from "${specifier}";\n`;
  }
}

/** An import of `target` from `fixture`, spelt one of the ways code spells them. */
function importOf(fixture: string, target: string, spelling: Spelling = "relative"): string {
  const bare = target.replace(/\.tsx?$/, "");
  let relative = path.relative(path.dirname(fixture), bare);
  if (!relative.startsWith(".")) relative = `./${relative}`;
  const tilde = bare.replace(/^app\//, "~/");
  if (spelling === "type") return moduleImporting(tilde, "type");
  return moduleImporting(spelling === "tilde" ? tilde : relative, spelling === "dynamic" ? "dynamic" : "static");
}

async function lint(fixture: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, fixture) });
  return result!.messages;
}

/** The messages of the path rule for one import. */
async function refusals(fixture: string, target: string, spelling?: Spelling): Promise<string[]> {
  const messages = await lint(fixture, importOf(fixture, target, spelling));
  const other = messages.filter((m) => m.ruleId !== "import/no-restricted-paths");
  expect(other, "only the path rule speaks (the import resolved, the fixture is clean)").toEqual([]);
  // The rule says "Unexpected path … imported in restricted zone." and then the zone's message.
  return messages.map((m) => m.message.replace(/^Unexpected path .* imported in restricted zone\. /, ""));
}

const zoneMessage = (pattern: RegExp) => {
  const zone = ZONES.find((z) => pattern.test(z.message));
  if (!zone) throw new Error(`no zone says ${pattern}`);
  return zone.message;
};

describe("every module of app/ is in one layer", () => {
  const modules: string[] = [];
  (function walk(dir: string) {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) modules.push(file);
    }
  })("app");

  it("finds the modules", () => expect(modules.length).toBeGreaterThan(100));
  it.each(modules)("%s", (module) => {
    const layers = LAYERS.filter((layer) => layer.files.some((glob) => minimatch(module, glob)));
    expect(layers.map((layer) => layer.name)).toHaveLength(1);
  });
  it("has a sample for each layer, in that layer", () => {
    expect(Object.keys(SAMPLES)).toEqual(LAYERS.map((layer) => layer.name));
    for (const layer of LAYERS) {
      const sample = SAMPLES[layer.name]!;
      for (const file of [sample.module, sample.fixture]) expect(layer.files.some((glob) => minimatch(file, glob)), file).toBe(true);
      expect(fs.existsSync(path.join(ROOT, sample.module))).toBe(true);
    }
  });
});

describe("a layer never imports one above it", () => {
  const pairs = LAYERS.flatMap((lower, index) =>
    LAYERS.slice(0, index).map((upper) => [lower.name, upper.name] as const),
  );
  it.each(pairs)("%s → %s is refused", async (lower, upper) => {
    const messages = await refusals(SAMPLES[lower]!.fixture, SAMPLES[upper]!.module);
    expect(messages.some((m) => m.startsWith(`${lower} sits below`))).toBe(true);
  });

  const spellings: Spelling[] = ["relative", "tilde", "type", "dynamic"];
  it.each(spellings)("whatever the spelling: %s", async (spelling) => {
    const messages = await refusals(SAMPLES.lib!.fixture, SAMPLES.search!.module, spelling);
    expect(messages.some((m) => m.startsWith("lib sits below"))).toBe(true);
  });

  it.each(LAYERS.slice(0, -1).map((layer, index) => [layer.name, LAYERS[index + 1]!.name] as const))(
    "%s → %s (down) passes",
    async (upper, lower) => {
      expect(await refusals(SAMPLES[upper]!.fixture, SAMPLES[lower]!.module)).toEqual([]);
    },
  );
  it("an import within a layer passes", async () => {
    expect(await refusals(SAMPLES.lib!.fixture, "app/lib/safe-path.ts", "tilde")).toEqual([]);
  });
});

describe("only the composition root knows the concrete engines", () => {
  const engines = {
    fusion: "app/search/engines/fusion/query-builder.ts",
    embedded: "app/search/engines/embedded/schema.ts",
    backend: "app/search/engines/backend/backend-engine.server.ts",
  };
  const onlyRoot = zoneMessage(/Only the composition root/);
  const noNeighbours = zoneMessage(/not through each other/);

  it.each([
    ["app/web/lint-fixture.server.ts", engines.embedded],
    ["app/search/lint-fixture.ts", engines.fusion],
    ["app/search/query/lint-fixture.ts", engines.embedded],
    ["app/start-up.server.ts", engines.backend],
    ["app/lib/lint-fixture.server.ts", engines.fusion],
  ])("%s → %s is refused", async (fixture, engine) => {
    expect(await refusals(fixture, engine, "tilde")).toContain(onlyRoot);
  });

  const pairs = Object.keys(engines).flatMap((from) =>
    Object.entries(engines)
      .filter(([to]) => to !== from)
      .map(([, module]) => [from, module] as const),
  );
  it.each(pairs)("the %s engine → %s is refused", async (from, module) => {
    for (const spelling of ["relative", "tilde"] as const) {
      expect(await refusals(`app/search/engines/${from}/lint-fixture.server.ts`, module, spelling)).toContain(noNeighbours);
    }
  });

  it("the composition root → an engine passes", async () => {
    const messages = await lint("app/registry.server.ts", importOf("app/registry.server.ts", engines.embedded));
    expect(messages.filter((m) => m.ruleId === "import/no-restricted-paths")).toEqual([]);
  });
  it("an engine → the domain and its own folder passes", async () => {
    expect(await refusals("app/search/engines/fusion/lint-fixture.ts", "app/search/engine.ts", "tilde")).toEqual([]);
    expect(await refusals("app/search/engines/fusion/lint-fixture.ts", engines.fusion)).toEqual([]);
  });
});

describe("server-only modules stay out of components and pure modules", () => {
  const serverOnly = zoneMessage(/Server-only modules/);
  it.each([
    ["app/components/lint-fixture.tsx", "app/export/stream.server.ts"],
    ["app/export/lint-fixture.ts", "app/search/engines/embedded/catalog-db.server.ts"],
    ["app/search/lint-fixture.ts", "app/lib/in-turn.server.ts"],
    ["app/auth/lint-fixture.ts", "app/signals/store.server.ts"],
    ["app/signals/lint-fixture.ts", "app/lib/postgres.server.ts"],
    ["app/lib/lint-fixture.ts", "app/lib/http-client.server.ts"],
  ])("%s → %s is refused", async (fixture, module) => {
    expect(await refusals(fixture, module, "type")).toContain(serverOnly);
  });
  it("a server module → a server module passes", async () => {
    expect(await refusals("app/signals/lint-fixture.server.ts", "app/lib/postgres.server.ts")).toEqual([]);
  });
});

describe("the app never imports test code", () => {
  const testCode = zoneMessage(/never imports test code/);
  it.each(["app/lib/lint-fixture.ts", "app/web/lint-fixture.server.ts", "app/routes/lint-fixture.tsx"])(
    "%s → tests/ is refused",
    async (fixture) => {
      expect(await refusals(fixture, "tests/support/temp-files.ts")).toContain(testCode);
    },
  );
});

describe("no circle of imports", () => {
  // no-cycle reads the files from disk, so these are written for the test and removed after it.
  const file = (name: string) => path.join(ROOT, "app/lib", `lint-cycle-${process.pid}-${name}.ts`);
  const written: string[] = [];
  const write = (name: string, importing: string | null) => {
    const code = importing
      ? `import { ${importing} } from "./${path.basename(file(importing), ".ts")}";\nexport const ${name} = () => ${importing};\n`
      : `export const ${name} = 1;\n`;
    fs.writeFileSync(file(name), code);
    written.push(file(name));
  };
  afterAll(() => {
    for (const f of written) fs.rmSync(f, { force: true });
  });

  it("is refused, and a one-way import passes", async () => {
    write("a", "b");
    write("b", "a");
    write("c", "d");
    write("d", null);
    const [circle, oneWay] = await new ESLint({ cwd: ROOT }).lintFiles([file("a"), file("c")]);
    expect(circle!.messages.map((m) => m.ruleId)).toEqual(["import/no-cycle"]);
    expect(oneWay!.messages).toEqual([]);
  });
});

/** The messages of the import and environment rules for `code` in `fixture`; no other rule may speak. */
async function refusalsOf(fixture: string, code: string): Promise<string[]> {
  const rules = ["no-restricted-imports", "no-restricted-syntax", "no-restricted-properties"];
  const messages = await lint(fixture, code);
  expect(messages.filter((m) => !rules.includes(m.ruleId ?? "")), "only the import and environment rules speak").toEqual([]);
  return messages.map((m) => m.message);
}

const says = (messages: string[], refusal: string) => messages.some((m) => m.endsWith(refusal));

describe("the pure modules are plain TypeScript: no Node, no Remix", () => {
  const domain = [
    "app/embed/lint-fixture.ts",
    "app/export/lint-fixture.ts",
    "app/search/lint-fixture.ts",
    "app/search/engines/fusion/lint-fixture.ts",
    "app/auth/lint-fixture.ts",
    "app/signals/lint-fixture.client.ts",
    "app/lib/lint-fixture.ts",
  ];
  it.each(domain.flatMap((fixture) => ["@remix-run/node", "@remix-run/react"].map((source) => [fixture, source] as const)))(
    "%s → %s is refused",
    async (fixture, source) => {
      expect(says(await refusalsOf(fixture, moduleImporting(source)), REFUSALS.remix)).toBe(true);
    },
  );
  it.each(["static", "type", "dynamic", "re-export"] as const)("app/export/csv.ts → @remix-run/node, whatever the spelling: %s", async (spelling) => {
    expect(says(await refusalsOf("app/export/csv.ts", moduleImporting("@remix-run/node", spelling)), REFUSALS.remix)).toBe(true);
  });
  it("a server module of the search domain → @remix-run/node is refused", async () => {
    const fixture = "app/search/engines/fusion/lint-fixture.server.ts";
    for (const spelling of ["static", "dynamic"] as const) {
      expect(says(await refusalsOf(fixture, moduleImporting("@remix-run/node", spelling)), REFUSALS.remix)).toBe(true);
    }
  });
  it.each(["app/components/lint-fixture.tsx", ...domain])("%s → node:fs is refused", async (fixture) => {
    for (const spelling of ["static", "dynamic"] as const) {
      expect(says(await refusalsOf(fixture, moduleImporting("node:fs", spelling)), REFUSALS.node)).toBe(true);
    }
  });
  it.each(["@remix-run/node", "@remix-run/server-runtime", "@remix-run/express"])("a component → %s is refused", async (source) => {
    for (const spelling of ["static", "dynamic"] as const) {
      expect(says(await refusalsOf("app/components/lint-fixture.tsx", moduleImporting(source, spelling)), REFUSALS.remixServer)).toBe(true);
    }
  });
  it("a component → @remix-run/react passes", async () => {
    for (const spelling of ["static", "dynamic"] as const) {
      expect(await refusalsOf("app/components/lint-fixture.tsx", moduleImporting("@remix-run/react", spelling))).toEqual([]);
    }
  });
  it("a server module outside the search domain → @remix-run/node and node:fs passes", async () => {
    for (const fixture of ["app/export/lint-fixture.server.ts", "app/auth/lint-fixture.server.ts", "app/lib/lint-fixture.server.ts", "app/web/lint-fixture.server.ts"]) {
      expect(await refusalsOf(fixture, moduleImporting("@remix-run/node"))).toEqual([]);
      expect(await refusalsOf(fixture, moduleImporting("node:fs"))).toEqual([]);
    }
  });
});

describe("the environment is read in app/config.server.ts only", () => {
  const reading = "export const url = process.env.APP_URL;\n";
  it.each([
    "app/routes/lint-fixture.tsx",
    "app/root.tsx",
    "app/web/lint-fixture.server.ts",
    "app/registry.server.ts",
    "app/start-up.server.ts",
    "app/components/lint-fixture.tsx",
    "app/export/lint-fixture.server.ts",
    "app/search/lint-fixture.ts",
    "app/auth/lint-fixture.server.ts",
    "app/signals/lint-fixture.server.ts",
    "app/lib/lint-fixture.server.ts",
  ])("process.env in %s is refused", async (fixture) => {
    expect(await refusalsOf(fixture, reading)).toEqual([expect.stringMatching(REFUSALS.env)]);
  });
  const spellings = [
    'export const url = process.env["APP_URL"];\n',
    "const { env } = process;\nexport const url = env.APP_URL;\n",
    'import { env } from "node:process";\nexport const url = env.APP_URL;\n',
    'import { env } from "process";\nexport const url = env.APP_URL;\n',
  ];
  it.each(spellings)("whatever the spelling: %s", async (code) => {
    expect(says(await refusalsOf("app/web/cookie.server.ts", code), REFUSALS.env)).toBe(true);
  });
  it("app/config.server.ts reads it", async () => {
    for (const code of [reading, ...spellings]) expect(await refusalsOf("app/config.server.ts", code)).toEqual([]);
  });
});

describe("the browser journeys run with the console guard of tests/e2e/fixtures.ts", () => {
  const journey = "tests/e2e/lint-fixture.spec.ts";
  it.each([
    'import { test } from "@playwright/test";\nexport const t = test;\n',
    'import { test as base } from "@playwright/test";\nexport const t = base;\n',
    'import pw from "@playwright/test";\nexport const t = pw;\n',
    'import * as pw from "@playwright/test";\nexport const t = pw;\n',
    'export { test } from "@playwright/test";\n',
    'export const load = () => import("@playwright/test");\n',
  ])("Playwright's own test in a journey is refused: %s", async (code) => {
    expect(says(await refusalsOf(journey, code), REFUSALS.playwrightTest)).toBe(true);
  });
  it("a journey takes test from ./fixtures and types from @playwright/test", async () => {
    const code = 'import type { Page } from "@playwright/test";\nimport { expect, test } from "./fixtures";\nexport const t = [test, expect];\nexport type P = Page;\n';
    expect(await refusalsOf(journey, code)).toEqual([]);
  });
  it("the fixture itself extends Playwright's test", async () => {
    expect(await refusalsOf("tests/e2e/fixtures.ts", 'import { test as base } from "@playwright/test";\nexport const t = base;\n')).toEqual([]);
  });
});
