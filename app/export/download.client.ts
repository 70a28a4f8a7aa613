import { failureReasonOf } from "./failure";
import { CsvRecordCounter, dispositionFilename, progressOf, type ExportProgress } from "./progress";

/** What became of a download: saved, or an answer that is no CSV (a page to show instead). */
export type DownloadOutcome = { kind: "saved"; records: number } | { kind: "page"; url: string };

/**
 * Fetches a CSV export, reporting its progress against `total` records as it streams, and saves it
 * under the server's file name. An answer that is no CSV (the dialog again, with a message, or an
 * error page) is left for the caller to show as a page, as the browser would without JavaScript.
 */
export async function downloadWithProgress(url: string, total: number, onProgress: (p: ExportProgress) => void): Promise<DownloadOutcome> {
  const started = performance.now();
  const response = await fetch(url, { credentials: "same-origin" });
  // A failure page (5xx): its reason, for the question whether to try again (spec §8).
  if (response.status >= 500) throw new Error(await reasonOf(response));
  if (!response.ok || !response.body || !(response.headers.get("Content-Type") ?? "").startsWith("text/csv")) {
    await response.body?.cancel().catch(() => undefined);
    return { kind: "page", url: response.url || url };
  }
  const counter = new CsvRecordCounter();
  const decoder = new TextDecoder();
  const chunks: Uint8Array[] = [];
  const reader = response.body.getReader();
  onProgress(progressOf(0, total, 0));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    counter.push(decoder.decode(value, { stream: true }));
    onProgress(progressOf(counter.records, total, performance.now() - started));
  }
  onProgress(progressOf(counter.records, total, performance.now() - started, true));
  save(new Blob(chunks as BlobPart[], { type: "text/csv;charset=utf-8" }), dispositionFilename(response.headers.get("Content-Disposition"), "search-results.csv"));
  return { kind: "saved", records: counter.records };
}

function save(blob: Blob, filename: string): void {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the browser has surely taken the file.
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

async function reasonOf(response: Response): Promise<string> {
  const html = await response.text().catch(() => "");
  const title = new DOMParser().parseFromString(html, "text/html").title;
  return failureReasonOf(title) ?? `HTTP ${response.status}: ${response.statusText}`;
}
