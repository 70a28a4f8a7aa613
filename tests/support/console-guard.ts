import { format } from "node:util";
import { afterAll, afterEach, beforeEach } from "vitest";

/**
 * A setup file of every vitest config: a test fails when something prints with console.error that
 * the test did not say it expects. A test that expects an error says so, either with
 * `expectConsoleError(pattern)` (the line is then kept out of the output, and the test fails if no
 * such line is printed) or by spying on console.error itself (`vi.spyOn(console, "error")`), which
 * takes the lines before they reach the guard. A line printed outside any test (a hook of the file,
 * a timer that fires after its test) fails the file.
 */
interface Guard {
  /** What the current test expects, each pattern with whether a line matched it yet. */
  expected: { pattern: RegExp; seen: boolean }[];
  /** Lines nobody expected, since the last check. */
  unexpected: string[];
}

// One guard for the worker, on globalThis: the setup file and a test file's import of this module
// meet at the same state whether or not they share a module instance.
const KEY = Symbol.for("crib.consoleGuard");
const holder = globalThis as typeof globalThis & { [KEY]?: Guard };
const guard: Guard = (holder[KEY] ??= install());

function install(): Guard {
  const state: Guard = { expected: [], unexpected: [] };
  const print = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const line = format(...args);
    const match = state.expected.find((e) => e.pattern.test(line));
    if (match) match.seen = true;
    else {
      state.unexpected.push(line);
      print(...args);
    }
  };
  return state;
}

/**
 * The current test expects console.error to print a line matching `pattern` (a string is a part of
 * the line); every such line is taken as expected, and the test fails if none is printed.
 */
export function expectConsoleError(pattern: RegExp | string): void {
  guard.expected.push({ pattern: typeof pattern === "string" ? new RegExp(escape(pattern)) : pattern, seen: false });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function unexpectedLines(where: string): Error | undefined {
  const lines = guard.unexpected.splice(0);
  if (lines.length === 0) return undefined;
  const shown = lines.map((line) => `  ${line.split("\n")[0]}`).join("\n");
  return new Error(`console.error printed ${lines.length} line(s) ${where} that nothing expected (use expectConsoleError):\n${shown}`);
}

beforeEach(() => {
  // A line printed between tests (a hook, a late timer) is the file's fault, reported in afterAll.
  guard.expected = [];
});

afterEach(() => {
  const missing = guard.expected.filter((e) => !e.seen).map((e) => String(e.pattern));
  guard.expected = [];
  const failure = unexpectedLines("during the test or its hooks");
  if (failure) throw failure;
  if (missing.length > 0) throw new Error(`console.error printed no line matching ${missing.join(", ")}, which the test expected`);
});

afterAll(() => {
  const failure = unexpectedLines("outside the tests");
  if (failure) throw failure;
});
