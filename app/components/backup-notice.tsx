/**
 * Said on every page that the backup answered because the search platform is out: where the
 * results came from, worded by the server (app/web/backup.server.ts). Nothing when it did not.
 */
export function BackupNotice({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return (
    <p className="notice" role="status">
      {text}
    </p>
  );
}
