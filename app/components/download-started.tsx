/**
 * The page an export returns to without JavaScript: the dialog is closed, the header's box has the
 * focus again (so a scan searches instead of exporting once more), and the browser fetches the
 * file itself (`downloadRefresh` in the page's head); this link fetches it by hand.
 */
export function DownloadStarted({ href }: { href: string }) {
  return (
    <p className="notice download-started" role="status">
      Your download is starting. If your download does not start, <a href={href}>download it here</a>.
    </p>
  );
}

/** The page's `<meta http-equiv="refresh">` to a download, which the browser saves and stays on the page. */
export function downloadRefresh(href: string | null | undefined) {
  return href ? [{ httpEquiv: "refresh", content: `0;url=${href}` }] : [];
}
