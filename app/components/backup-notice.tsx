/**
 * Where a degraded page's results came from: the embedded catalogue (with the date it was built,
 * when known) or, where the portal's backup is a product backend (BACKEND_URL), that backend.
 */
export type BackupView = { source: "catalogue"; builtOn: string | null } | { source: "backend" };

/** The notice's text; the date is the backup catalogue's build date, already formatted. */
export function backupNoticeText(backup: BackupView | null | undefined): string {
  const from =
    backup?.source === "backend"
      ? "the product backend"
      : `the backup catalogue${backup?.source === "catalogue" && backup.builtOn ? ` of ${backup.builtOn}` : ""}`;
  return `The search platform is not answering; these results come from ${from}; stock figures may be out of date.`;
}

/** Said on every page that the backup answered because the search platform is out. */
export function BackupNotice({ backup }: { backup?: BackupView | null }) {
  return (
    <p className="notice" role="status">
      {backupNoticeText(backup)}
    </p>
  );
}
