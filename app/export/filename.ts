/**
 * Download file names (spec §5): lowercase, hyphen-separated, dated, at most 50 characters.
 * Pure, so the export dialog can show the name the server will use.
 */

const MAX_LENGTH = 50;
const EXTENSION = ".csv";

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/** YYYY-MM-DD of a Date in UTC, so a server and a browser in other time zones name a file alike. */
export function isoDate(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError("isoDate: invalid date");
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
}

/**
 * Lowercase, hyphen-separated file name part: letters and digits of any script are kept (accents
 * removed), everything else becomes "-", runs collapsed, ends trimmed.
 */
export function slug(text: string): string {
  // Lowercase first: "İ".toLowerCase() yields a combining dot that the accent removal then drops.
  // Only the Latin/Greek/Cyrillic accents (U+0300–U+036F) are removed: other scripts' marks are part
  // of the word (ポンプ "pump" would become ホンフ), so they are kept and NFC recomposes them.
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036F]/g, "")
    .normalize("NFC")
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, "-")
    .replace(/(^|-)\p{M}+/gu, "$1")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * A slug cut to `max` characters (code points, so no surrogate pair is split). It is cut at a hyphen
 * when that keeps at least half of the room; otherwise mid-word, so that two long item numbers do
 * not both shrink to the same bare prefix.
 */
function fit(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = chars.slice(0, max + 1);
  const hyphen = head[max] === "-" ? max : head.lastIndexOf("-", max - 1);
  const end = hyphen >= Math.ceil(max / 2) ? hyphen : max;
  return chars.slice(0, end).join("").replace(/-+$/, "");
}

/**
 * `${prefix}-${YYYY-MM-DD}.csv`, at most 50 characters: the slugged prefix is cut to fit.
 * `exportFilename("all-results", date)` → `all-results-2026-11-23.csv`.
 */
export function exportFilename(prefix: string, date: Date): string {
  const suffix = `-${isoDate(date)}${EXTENSION}`;
  const head = fit(slug(prefix), MAX_LENGTH - suffix.length);
  return `${head === "" ? "export" : head}${suffix}`;
}

/**
 * A user's own file name: trimmed; empty (or nothing usable left) → null, and the caller uses the
 * dated default. Otherwise slugged with ".csv" appended, at most 50 characters. Slugging is what
 * keeps path separators, "..", control characters and quotes out.
 */
export function customFilename(input: string | null | undefined): string | null {
  const trimmed = (input ?? "").trim();
  if (trimmed === "") return null;
  const base = trimmed.toLowerCase().endsWith(EXTENSION) ? trimmed.slice(0, -EXTENSION.length) : trimmed;
  const name = fit(slug(base), MAX_LENGTH - EXTENSION.length);
  return name === "" ? null : `${name}${EXTENSION}`;
}

/** `backup-{name}`: a file from the backup catalogue says so in its name (decision 022), within the 50 characters. */
export function backupFilename(name: string): string {
  if (name.startsWith("backup-")) return name;
  const stem = name.slice(0, -EXTENSION.length);
  return `backup-${fit(stem, MAX_LENGTH - "backup-".length - EXTENSION.length)}${EXTENSION}`;
}
