/** Said on every page that the backup catalogue answered because the search platform is out. */
export function BackupNotice() {
  return (
    <p className="notice" role="status">
      Showing results from the backup catalogue
    </p>
  );
}
