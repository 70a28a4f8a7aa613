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
 * Where a degraded page's results came from: the embedded catalogue (with the date it was built,
 * when known) or, where the portal's backup is a product backend (BACKEND_URL), that backend.
 */
export type BackupSource = { source: "catalogue"; builtOn: string | null } | { source: "backend" };

/** The notice's text; the date is the backup catalogue's build date, already formatted. */
export function backupNoticeText(backup: BackupSource): string {
  const from =
    backup.source === "backend" ? "the product backend" : `the backup catalogue${backup.builtOn ? ` of ${backup.builtOn}` : ""}`;
  return `The search platform is not answering; these results come from ${from}; stock figures may be out of date.`;
}

/**
 * What the backup notice says about an answer: nothing when the platform answered (or none is
 * configured); else where the results came from and, for the embedded catalogue, when it was built.
 * The page's data carries the text, so the browser needs no code to word it.
 */
export function backupOf(answer: Pick<Answer<unknown>, "degraded" | "engine">): string | null {
  if (!answer.degraded) return null;
  if (answer.engine === "backend") return backupNoticeText({ source: "backend" });
  let builtAt: string | null = null;
  try {
    builtAt = services().catalogue?.open().builtAt ?? null;
  } catch {
    // The catalogue just answered; if it cannot say its age now, the notice goes without the date.
  }
  return backupNoticeText({ source: "catalogue", builtOn: formatBuildDate(builtAt) });
}
