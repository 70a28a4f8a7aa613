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

function fromWhere(backup: BackupSource): string {
  return backup.source === "backend" ? "the product backend" : `the backup catalogue${backup.builtOn ? ` of ${backup.builtOn}` : ""}`;
}

/** The notice's text; the date is the backup catalogue's build date, already formatted. */
export function backupNoticeText(backup: BackupSource): string {
  return `The search platform is not answering; these results come from ${fromWhere(backup)}; stock figures may be out of date.`;
}

/** The backup this portal falls back to, with the catalogue's build date when it can say it. */
function backupSource(engine: string): BackupSource {
  if (engine === "backend") return { source: "backend" };
  let builtAt: string | null = null;
  try {
    builtAt = services().catalogue?.open().builtAt ?? null;
  } catch {
    // The catalogue just answered; if it cannot say its age now, the notice goes without the date.
  }
  return { source: "catalogue", builtOn: formatBuildDate(builtAt) };
}

/**
 * What the backup notice says about an answer: nothing when the platform answered (or none is
 * configured); else where the results came from and, for the embedded catalogue, when it was built.
 * The page's data carries the text, so the browser needs no code to word it.
 */
export function backupOf(answer: Pick<Answer<unknown>, "degraded" | "engine">): string | null {
  if (!answer.degraded) return null;
  return backupNoticeText(backupSource(answer.engine));
}

/**
 * What the export dialog says of a file that would come from the backup (decision 022); null
 * without a search platform, where the catalogue is the only source and nothing changes.
 */
export function exportBackupText(): string | null {
  const status = services().search.status();
  if (!status.primary) return null;
  return `The search platform is not answering: this file would come from ${fromWhere(backupSource(status.fallback))}.`;
}
