import { BOM, csvHeader, csvRows } from "./csv";
import { contentDisposition } from "./content-disposition.server";

/** Any document: rows are read by field name. */
type Row = object;

export interface OpenCursor {
  /** The first batch, already read: a failure there is answered with an error page, not a broken file. */
  first: Row[];
  rest: AsyncIterator<Row[]>;
}

/** Reads the first batch of a cursor, so that failures before the first row surface here. */
export async function openCursor(batches: AsyncIterable<Row[]>): Promise<OpenCursor> {
  const rest = batches[Symbol.asyncIterator]();
  const first = await rest.next();
  return { first: first.done ? [] : first.value, rest };
}

export interface CsvStreamOptions {
  cursor: OpenCursor;
  fields: string[];
  labels?: Record<string, string>;
  /** Aborted when the client goes away: reading stops. */
  signal?: AbortSignal;
  onFinish?: (rows: number) => void;
  onError?: (error: unknown, rows: number) => void;
}

const encoder = new TextEncoder();

/**
 * A CSV body that pulls one batch from the cursor each time the client is ready for more, so
 * memory stays flat whatever the size. A failure mid-way errors the stream, which aborts the HTTP
 * response: the browser reports a failed download instead of saving a silently truncated file.
 */
export function csvStream({ cursor, fields, labels, signal, onFinish, onError }: CsvStreamOptions): ReadableStream<Uint8Array> {
  let rows = cursor.first.length;
  let finished = false;
  const stop = () => {
    if (finished) return;
    finished = true;
    void cursor.rest.return?.();
  };
  signal?.addEventListener("abort", stop, { once: true });
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`${BOM}${csvHeader(fields, labels)}\r\n${csvRows(cursor.first as Record<string, unknown>[], fields)}`));
      },
      async pull(controller) {
        if (finished) {
          controller.close();
          return;
        }
        try {
          const next = await cursor.rest.next();
          if (signal?.aborted) {
            stop();
            controller.close();
            return;
          }
          if (next.done) {
            finished = true;
            controller.close();
            onFinish?.(rows);
            return;
          }
          rows += next.value.length;
          controller.enqueue(encoder.encode(csvRows(next.value as Record<string, unknown>[], fields)));
        } catch (error) {
          stop();
          onError?.(error, rows);
          controller.error(error);
        }
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: 1 },
  );
}

/** The download response: CSV type, both filename forms, never cached (the server adds the security headers). */
export function csvResponse(body: ReadableStream<Uint8Array> | string, filename: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": contentDisposition(filename),
      "Cache-Control": "no-store",
    },
  });
}

/** Spec §9: the cursor batch size that suits the export's size. */
export function batchSizeFor(total: number): number {
  if (total < 5_000) return 500;
  if (total < 20_000) return 1_000;
  if (total < 50_000) return 2_000;
  return 100;
}
