import { describe, expect, it } from "vitest";
import { inTrace, traced, traceHeaders, traceOf, traceparentOf } from "./trace.server";

describe("trace context", () => {
  it("continues a valid traceparent's trace with a span of its own", () => {
    const trace = traceOf("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    expect(trace.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(trace.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(trace.spanId).not.toBe("00f067aa0ba902b7");
    expect(traceparentOf(trace)).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
  });

  it.each([undefined, "", "garbage", "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"])(
    "begins a new trace for %j",
    (header) => {
      const trace = traceOf(header);
      expect(trace.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(trace.traceId).not.toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    },
  );

  it("adds the trace to calls made within it, and nothing outside a request", async () => {
    expect(traceHeaders()).toEqual({});
    const trace = traceOf("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    const headers = await inTrace(trace, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return new Headers(traced({ headers: { Accept: "application/json" } }).headers);
    });
    expect(headers.get("traceparent")).toBe(traceparentOf(trace));
    expect(headers.get("accept")).toBe("application/json");
    // A header the caller set wins.
    const own = inTrace(trace, () => new Headers(traced({ headers: { traceparent: "00-aa-bb-01" } }).headers));
    expect(own.get("traceparent")).toBe("00-aa-bb-01");
  });
});
