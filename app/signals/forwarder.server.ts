import { nodeHttpRequest } from "~/lib/node-http.server";
import { toFusionSignal } from "./model.server";
import type { SqliteSignalStore } from "./store.server";

export interface ForwarderOptions {
  /** Fusion's base URL. */
  url: string;
  /** The primary collection: signals land in `{collection}_signals`. */
  collection: string;
  apiKey?: string;
  timeoutMs: number;
  batchSize?: number;
  /** Wait between looks at an empty outbox. */
  idleMs?: number;
  /** The first wait after a failure; it doubles up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How long a claimed batch stays with this process before another may take it. */
  leaseMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
  log?: (message: string) => void;
}

/**
 * Sends the outbox to Fusion's Signals API (`POST {url}/api/signals/{collection}`), ten signals a
 * request, oldest first. A signal is marked sent when Fusion accepts its batch (2xx); while Fusion
 * is down or answers 5xx (or 408, 429) the batch waits and the forwarder backs off, doubling the
 * wait; a batch Fusion refuses for what it is (another 4xx) is set aside as sent, with a log line,
 * since sending it again would be refused again. Fusion stores a signal under its `id`, so the one
 * resend a crash between Fusion's answer and the mark can cause is no second signal there.
 */
export class SignalForwarder {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private busy: Promise<void> | null = null;
  private failures = 0;
  private readonly o: Required<Omit<ForwarderOptions, "apiKey">> & { apiKey?: string };

  constructor(
    private readonly store: SqliteSignalStore,
    options: ForwarderOptions,
  ) {
    this.o = {
      batchSize: 10,
      idleMs: 1000,
      backoffMs: 500,
      maxBackoffMs: 30_000,
      leaseMs: 60_000,
      fetch: postOverNodeHttp,
      now: Date.now,
      log: (message) => console.warn(message),
      ...options,
    };
  }

  get endpoint(): string {
    return `${this.o.url}/api/signals/${encodeURIComponent(this.o.collection)}`;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops after the batch under way, if any. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.busy;
  }

  /** A new signal is waiting: send soon rather than at the next idle look (not while backing off). */
  kick(): void {
    if (this.running && this.failures === 0 && this.timer && !this.busy) this.schedule(0);
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.busy = this.step()
        .then((next) => this.schedule(next))
        .finally(() => (this.busy = null));
    }, ms);
    this.timer.unref();
  }

  /** Sends one batch; returns the wait before the next. */
  async step(): Promise<number> {
    const batch = this.store.claim(this.o.batchSize, this.o.now(), this.o.leaseMs);
    if (batch.length === 0) return this.o.idleMs;
    const seqs = batch.map((b) => b.seq);
    let status = 0;
    try {
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      if (this.o.apiKey) headers["x-api-key"] = this.o.apiKey;
      const response = await this.o.fetch(this.endpoint, {
        method: "POST",
        headers,
        body: JSON.stringify(batch.map((b) => toFusionSignal(b.signal))),
        signal: AbortSignal.timeout(this.o.timeoutMs),
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch {
      status = 0;
    }
    const now = this.o.now();
    if (status >= 200 && status < 300) {
      this.store.markSent(seqs, now);
      this.failures = 0;
      return batch.length === this.o.batchSize ? 0 : this.o.idleMs;
    }
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
      this.o.log(`Signals: Fusion refused a batch of ${batch.length} (HTTP ${status}); set aside`);
      this.store.markSent(seqs, now);
      return 0;
    }
    this.failures++;
    const wait = Math.min(this.o.maxBackoffMs, this.o.backoffMs * 2 ** (this.failures - 1));
    if (this.failures === 1) this.o.log(`Signals: Fusion ${status ? `answered HTTP ${status}` : "is unreachable"}; kept in the outbox, retrying`);
    this.store.retryLater(seqs, now + wait);
    return wait;
  }
}

/** The forwarder's POST, over Node's own HTTP client (`nodeHttpRequest` says why not `fetch`). */
const postOverNodeHttp: typeof fetch = (input, init = {}) =>
  nodeHttpRequest(
    String(input),
    { method: "POST", headers: init.headers as Record<string, string>, ...(typeof init.body === "string" ? { body: init.body } : {}) },
    init.signal ?? undefined,
  );
