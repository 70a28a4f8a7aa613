/**
 * An export's progress as the browser reads its CSV (core §3 "Export progress": fetched, total,
 * percentage, time left). Pure, so that the dialog only draws it.
 */

/** The spec's estimate before any record has arrived: about 1000 records a second (core §9). */
export const RECORDS_PER_SECOND = 1000;

export interface ExportProgress {
  fetched: number;
  total: number;
  percentage: number;
  /** Seconds, rounded up; 0 once done. */
  estimatedTimeRemaining: number;
  isComplete: boolean;
}

/** Progress after `fetched` of `total` records in `elapsedMs`: the rate so far, or the spec's estimate before the first. */
export function progressOf(fetched: number, total: number, elapsedMs: number, isComplete = false): ExportProgress {
  const done = Math.max(0, Math.min(fetched, total));
  const left = isComplete ? 0 : total - done;
  const rate = done > 0 && elapsedMs > 0 ? done / (elapsedMs / 1000) : RECORDS_PER_SECOND;
  return {
    fetched: done,
    total,
    percentage: isComplete || total === 0 ? 100 : Math.floor((done / total) * 100),
    estimatedTimeRemaining: left > 0 ? Math.ceil(left / rate) : 0,
    isComplete,
  };
}

/** "1,234 of 5,000 records (24 %), about 4 s left" */
export function progressText(p: ExportProgress): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const head = `${n(p.fetched)} of ${n(p.total)} records (${p.percentage} %)`;
  if (p.isComplete) return `${head}, done`;
  return `${head}, about ${p.estimatedTimeRemaining} s left`;
}

/** Counts the records in CSV text as it streams: line ends outside quoted cells, less the header line. */
export class CsvRecordCounter {
  private quoted = false;
  private lines = 0;

  push(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) this.quoted = !this.quoted;
      else if (c === 10 && !this.quoted) this.lines++;
    }
  }

  get records(): number {
    return Math.max(0, this.lines - 1);
  }
}

/** The file name of a Content-Disposition header: the exact `filename*` (RFC 5987), else `filename`. */
export function dispositionFilename(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const exact = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (exact) {
    try {
      return decodeURIComponent(exact[1]!.trim());
    } catch {
      // A malformed escape: the ASCII name below.
    }
  }
  const plain = /filename="([^"]*)"/i.exec(header);
  return plain?.[1] || fallback;
}
