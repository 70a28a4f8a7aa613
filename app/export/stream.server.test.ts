import { describe, expect, it, vi } from "vitest";
import { csvStream, openCursor } from "./stream.server";

const FIELDS = ["item_number", "description"];
const row = (n: number) => ({ item_number: `ITM-${n}`, description: `Part ${n}` });
const batch = (from: number, size = 2) => Array.from({ length: size }, (_, i) => row(from + i));

/**
 * A cursor over `batches` that records how far it was read and whether it was closed (its
 * `finally` ran, as the engines' cursors release their statement or connection there).
 * `failAt`: the index of the batch whose reading throws instead.
 */
function trackedCursor(batches: ReturnType<typeof batch>[], failAt?: number) {
  const seen = { read: 0, closed: false };
  async function* cursor() {
    try {
      for (let i = 0; i < batches.length; i++) {
        if (i === failAt) throw new Error("the search platform went away");
        seen.read++;
        yield batches[i]!;
      }
    } finally {
      seen.closed = true;
    }
  }
  return { seen, cursor: cursor() };
}

const decoder = new TextDecoder();

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("csvStream", () => {
  it("writes the header and every batch, then finishes with the row count", async () => {
    const { seen, cursor } = trackedCursor([batch(1), batch(3), batch(5, 1)]);
    const onFinish = vi.fn();
    const onError = vi.fn();
    const text = await readAll(csvStream({ cursor: await openCursor(cursor), fields: FIELDS, onFinish, onError }));
    expect(text.replace(/^\uFEFF/, "").split("\r\n").filter(Boolean)).toHaveLength(1 + 5);
    expect(text).toContain("ITM-5");
    expect(onFinish).toHaveBeenCalledWith(5);
    expect(onError).not.toHaveBeenCalled();
    expect(seen).toEqual({ read: 3, closed: true });
  });

  it("errors the body when a batch after the first fails, so the download fails instead of ending short", async () => {
    const { seen, cursor } = trackedCursor([batch(1), batch(3), batch(5)], 2);
    const onFinish = vi.fn();
    const onError = vi.fn();
    const stream = csvStream({ cursor: await openCursor(cursor), fields: FIELDS, onFinish, onError });
    const reader = stream.getReader();
    const received: string[] = [];
    const failure = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return "ended";
        received.push(decoder.decode(value));
      }
    })();
    await expect(failure).rejects.toThrow("the search platform went away");
    // What had been sent is the first two batches, and the stream never said it was complete.
    expect(received.join("")).toContain("ITM-4");
    expect(received.join("")).not.toContain("ITM-5");
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: "the search platform went away" }), 4);
    expect(onFinish).not.toHaveBeenCalled();
    expect(seen.closed).toBe(true);
  });

  it("makes a Response body reject as a whole when the cursor fails mid-way", async () => {
    const { cursor } = trackedCursor([batch(1), batch(3)], 1);
    await expect(readAll(csvStream({ cursor: await openCursor(cursor), fields: FIELDS }))).rejects.toThrow("the search platform went away");
  });

  it("stops reading the cursor when the client's request is aborted", async () => {
    const { seen, cursor } = trackedCursor([batch(1), batch(3), batch(5), batch(7), batch(9)]);
    const client = new AbortController();
    const onFinish = vi.fn();
    const reader = csvStream({ cursor: await openCursor(cursor), fields: FIELDS, signal: client.signal, onFinish }).getReader();
    await reader.read();
    await reader.read();
    const readBeforeAbort = seen.read;
    client.abort();
    // The cursor is closed at once, and the body ends without reading another batch.
    await vi.waitFor(() => expect(seen.closed).toBe(true));
    let next = await reader.read();
    while (!next.done) next = await reader.read();
    expect(seen.read).toBe(readBeforeAbort);
    expect(seen.read).toBeLessThan(5);
    expect(onFinish).not.toHaveBeenCalled();
  });

  it("does not send a batch that arrives after the abort, and reads no other", async () => {
    let release!: () => void;
    const seen = { read: 0, closed: false };
    async function* slow() {
      try {
        yield batch(1);
        seen.read++;
        await new Promise<void>((resolve) => (release = resolve));
        yield batch(3);
        seen.read++;
        yield batch(5);
      } finally {
        seen.closed = true;
      }
    }
    const client = new AbortController();
    const reader = csvStream({ cursor: await openCursor(slow()), fields: FIELDS, signal: client.signal }).getReader();
    await reader.read(); // header and the first batch
    const pending = reader.read(); // the second batch is being read
    await vi.waitFor(() => expect(release).toBeTypeOf("function"));
    client.abort();
    release();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(seen).toEqual({ read: 1, closed: true });
  });

  it("stops reading the cursor when the body is cancelled", async () => {
    const { seen, cursor } = trackedCursor([batch(1), batch(3), batch(5), batch(7)]);
    const onFinish = vi.fn();
    const reader = csvStream({ cursor: await openCursor(cursor), fields: FIELDS, onFinish }).getReader();
    await reader.read();
    // Let the read-ahead of the next batch settle, so the cancel finds no read in flight.
    await new Promise((resolve) => setImmediate(resolve));
    await reader.cancel();
    await vi.waitFor(() => expect(seen.closed).toBe(true));
    expect(seen.read).toBeLessThan(4);
    expect(onFinish).not.toHaveBeenCalled();
  });
});

describe("openCursor", () => {
  it("rejects when the first batch fails, before any response is made", async () => {
    const { cursor } = trackedCursor([batch(1)], 0);
    await expect(openCursor(cursor)).rejects.toThrow("the search platform went away");
  });

  it("opens an empty cursor with no rows", async () => {
    const { cursor } = trackedCursor([]);
    expect((await openCursor(cursor)).first).toEqual([]);
  });
});
