import { Writable } from "node:stream";
import { format } from "node:util";
import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";

/**
 * The portal's log: one JSON object a line (pino), with the time, the level as a word, the replica
 * and the process; an error is one line too, its stack a field (`err.stack`). `LOG_FORMAT=pretty`
 * prints the same entries for a person at a terminal. Until the server configures it (at start-up,
 * from the settings) it logs JSON at `info`.
 *
 *   log.info({ requestId, route }, "message");   log.error({ err }, "what failed");
 */
export interface LogSettings {
  replica?: string;
  format?: "json" | "pretty";
  level?: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
}

function create(settings: LogSettings, destination?: DestinationStream): Logger {
  const stream = destination ?? (settings.format === "pretty" ? pretty({ sync: true, translateTime: "SYS:HH:MM:ss.l" }) : undefined);
  const options: pino.LoggerOptions = {
    level: settings.level ?? "info",
    base: { replica: settings.replica, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  return stream ? pino(options, stream) : pino(options);
}

let root = create({});
let current: LogSettings = {};

/** The server's settings for the log (config.server.ts reads them): the replica's name, the format, the level. */
export function configureLog(settings: LogSettings): void {
  current = settings;
  root = create(settings);
}

type Fields = Record<string, unknown>;
/** The log of this process (see the module's comment). */
export const log = {
  fatal: (fields: Fields, message: string) => root.fatal(fields, message),
  error: (fields: Fields, message: string) => root.error(fields, message),
  warn: (fields: Fields, message: string) => root.warn(fields, message),
  info: (fields: Fields, message: string) => root.info(fields, message),
  debug: (fields: Fields, message: string) => root.debug(fields, message),
};

/**
 * The server's console as log entries: what a library (or a line of the portal not written for the
 * log) prints with console.* becomes one JSON line of its level, an Error among its arguments the
 * entry's `err` (its stack a field), never a multi-line trace in the middle of the log.
 */
export function routeConsoleToLog(): void {
  const bridge = (level: "error" | "warn" | "info" | "debug") => (...args: unknown[]) => {
    const err = args.find((arg) => arg instanceof Error);
    const rest = args.filter((arg) => arg !== err);
    root[level](err ? { err } : {}, rest.length ? format(...rest) : err instanceof Error ? err.message : "");
  };
  console.error = bridge("error");
  console.warn = bridge("warn");
  console.info = bridge("info");
  console.log = bridge("info");
  console.debug = bridge("debug");
}

/** Tests: the entries logged while `run` runs, parsed; the log goes back to where it wrote before. */
export async function capturedLog<T>(run: () => T | Promise<T>, level: LogSettings["level"] = "debug"): Promise<{ result: T; entries: Fields[] }> {
  const entries: Fields[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n")) if (line) entries.push(JSON.parse(line) as Fields);
      done();
    },
  });
  const before = root;
  root = create({ ...current, level }, sink);
  try {
    return { result: await run(), entries };
  } finally {
    root = before;
  }
}
