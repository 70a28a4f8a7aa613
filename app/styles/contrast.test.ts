import fs from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * WCAG AA contrast of both palettes of app.css, for every pair of colours the stylesheet puts
 * together: 4.5:1 for text, 3:1 for the outline of form controls. The dark palette is written
 * twice (chosen, and auto under a dark system); both copies must be the same.
 */
const css = fs.readFileSync(new URL("./app.css", import.meta.url), "utf8");

function palette(selector: RegExp): Record<string, string> {
  const block = selector.exec(css)?.[1];
  if (!block) throw new Error(`no block ${selector} in app.css`);
  return Object.fromEntries([...block.matchAll(/--([a-z-]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [m[1]!, m[2]!.toLowerCase()]));
}

const LIGHT = palette(/\n:root \{([^}]*)\}/);
const DARK = palette(/\n:root\.dark \{([^}]*)\}/);
const AUTO_DARK = palette(/@media \(prefers-color-scheme: dark\) \{\s*:root:not\(\.light\) \{([^}]*)\}/);

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** [foreground, background] as the stylesheet combines them. */
const TEXT_PAIRS: [string, string][] = [
  ...["bg", "surface", "accent-soft", "include-soft", "exclude-soft", "mark"].map((bg): [string, string] => ["text", bg]),
  ...["bg", "surface", "accent-soft", "include-soft", "exclude-soft"].map((bg): [string, string] => ["muted", bg]),
  ...["bg", "surface", "accent-soft"].map((bg): [string, string] => ["accent", bg]),
  ["accent-text", "accent"],
  ["include", "surface"],
  ["include", "include-soft"],
  ["exclude", "surface"],
  ["exclude", "exclude-soft"],
  ["exclude", "bg"],
  ...["bg", "surface", "accent-soft"].map((bg): [string, string] => ["inactive", bg]),
];
const CONTROL_PAIRS: [string, string][] = [
  ["field-border", "surface"],
  ["field-border", "bg"],
];

describe("the palettes of app.css", () => {
  it("the dark palette chosen and the dark palette of auto are the same", () => {
    expect(Object.keys(DARK).length).toBeGreaterThan(10);
    expect(AUTO_DARK).toEqual(DARK);
    expect(Object.keys(DARK).sort()).toEqual(Object.keys(LIGHT).sort());
  });

  it.each([
    ["light", LIGHT],
    ["dark", DARK],
  ])("the %s palette meets WCAG AA for text and form controls", (_name, colours) => {
    const below = [
      ...TEXT_PAIRS.map(([fg, bg]) => [fg, bg, 4.5] as const),
      ...CONTROL_PAIRS.map(([fg, bg]) => [fg, bg, 3] as const),
    ]
      .map(([fg, bg, min]) => ({ pair: `${fg} on ${bg}`, ratio: Number(contrast(colours[fg]!, colours[bg]!).toFixed(2)), min }))
      .filter((c) => !(c.ratio >= c.min));
    expect(below).toEqual([]);
  });
});
