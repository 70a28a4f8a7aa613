/**
 * The item page's Export with JavaScript: the browser saves the file under the server's name, and
 * the focus goes back to the header's search box, so the next scan (keystrokes and Enter) searches
 * instead of pressing Export again.
 */
export function downloadThenRefocus(href: string): void {
  const link = document.createElement("a");
  link.href = href;
  link.download = "";
  document.body.append(link);
  link.click();
  link.remove();
  const box = document.getElementById("site-search");
  if (box instanceof HTMLInputElement) {
    box.focus();
    box.select();
  }
}
