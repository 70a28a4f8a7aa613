import { Worker } from "node:worker_threads";

export interface HttpClientReport {
  /** True when `globalThis.fetch` is Node's own (undici), the client the Fusion client is tested with. */
  nodeFetch: boolean;
  /** The undici inside Node, which Node's own `fetch` is. */
  undici: string | undefined;
}

let report: Promise<HttpClientReport> | undefined;

/**
 * Which `fetch` this process runs: Node's own, or one installed over it (Remix's globals
 * installer, asked for web-fetch, puts `@remix-run/web-fetch` there, whose errors have another
 * shape). A worker thread starts with pristine globals, so its `fetch` is Node's own: the
 * two are the same function when their source texts are. Asked once per process.
 */
export function httpClientReport(): Promise<HttpClientReport> {
  report ??= new Promise<string>((resolve, reject) => {
    const worker = new Worker("require('node:worker_threads').parentPort.postMessage(String(globalThis.fetch))", { eval: true });
    worker.once("message", (source: string) => {
      resolve(source);
      void worker.terminate();
    });
    worker.once("error", reject);
  }).then((pristine) => ({ nodeFetch: String(globalThis.fetch) === pristine, undici: process.versions.undici }));
  return report;
}
