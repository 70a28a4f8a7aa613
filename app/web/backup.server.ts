import type { BackupView } from "~/components/backup-notice";
import { services } from "~/registry.server";
import type { Answer } from "~/search/service";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** `25 November 2026`, in UTC so that every worker and replica says the same day. */
export function formatBuildDate(iso: string | null): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/**
 * What the backup notice says about an answer: nothing when the platform answered (or none is
 * configured); else where the results came from and, for the embedded catalogue, when it was built.
 */
export function backupOf(answer: Pick<Answer<unknown>, "degraded" | "engine">): BackupView | null {
  if (!answer.degraded) return null;
  if (answer.engine === "backend") return { source: "backend" };
  let builtAt: string | null = null;
  try {
    builtAt = services().catalogue?.open().builtAt ?? null;
  } catch {
    // The catalogue just answered; if it cannot say its age now, the notice goes without the date.
  }
  return { source: "catalogue", builtOn: formatBuildDate(builtAt) };
}
