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

/**
 * Why the backup answers, as the notice says it: the platform did not answer, or it answered that
 * the portal is set up wrongly (its key refused, its query profile unknown), which is not the same
 * thing to the person who reports it.
 */
export type BackupReason = "outage" | "key-refused" | "profile-unknown";

const WHY: Record<BackupReason, string> = {
  outage: "The search platform is not answering",
  "key-refused": "The search platform refused the portal's key",
  "profile-unknown": "The search platform does not know the portal's search set-up",
};

/**
 * The reason of the platform's last failure, from the configuration error it answered (if any),
 * by the spec's texts for 401, 403 and 404 (core-search §8), which the service reports.
 */
export function backupReason(configurationError: string | undefined): BackupReason {
  if (/^(Authentication failed|Access forbidden)\b/.test(configurationError ?? "")) return "key-refused";
  if (/^Query profile or collection not found\b/.test(configurationError ?? "")) return "profile-unknown";
  return "outage";
}

/** The notice's text; the date is the backup catalogue's build date, already formatted. */
export function backupNoticeText(backup: BackupSource, reason: BackupReason = "outage"): string {
  return `${WHY[reason]}; these results come from ${fromWhere(backup)}; stock figures may be out of date.`;
}

const currentReason = () => backupReason(services().search.status().primary?.configurationError);

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
  return backupNoticeText(backupSource(answer.engine), currentReason());
}

/**
 * What the export dialog says of a file that would come from the backup (decision 022); null
 * without a search platform, where the catalogue is the only source and nothing changes.
 */
export function exportBackupText(): string | null {
  const status = services().search.status();
  if (!status.primary) return null;
  return `${WHY[currentReason()]}: this file would come from ${fromWhere(backupSource(status.fallback))}.`;
}
