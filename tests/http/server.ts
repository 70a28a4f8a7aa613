/** The HTTP suite's server (started by global-setup.ts) and requests to it. */
import { inject } from "vitest";

export function url(path: string): string {
  return new URL(path, inject("baseUrl")).toString();
}

/** A GET to the test server, following redirects as a browser would. */
export function get(path: string, init?: RequestInit): Promise<Response> {
  return fetch(url(path), init);
}
