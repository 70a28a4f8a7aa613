/** Today's date on a printed page, under the search or item it lists (shown only in print). */
export function PrintDate() {
  return <span suppressHydrationWarning>printed {new Date().toISOString().slice(0, 10)}</span>;
}
