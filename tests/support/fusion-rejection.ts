import { FusionError } from "~/search/engines/fusion/fusion-errors";

/** The FusionError a call fails with; anything else (or success) fails the test. */
export async function rejection(promise: Promise<unknown>): Promise<FusionError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FusionError) return error;
    throw new Error(`expected a FusionError, got ${String(error)}`);
  }
  throw new Error("expected the call to fail");
}
