/**
 * The Export menu on a phone and on a desk: its entries on screen at 320 px as at 1280 px, and the
 * menu folded once the dialog it opens is on screen, with JavaScript (the page stays) and without.
 * The dialog's button counts the ticked fields and its preview follows them without JavaScript too,
 * Escape closes it in both modes, and with JavaScript the download shows its progress.
 */
import { readFile } from "node:fs/promises";
import { expect, test } from "./fixtures";
import { headerSearch, isJs, openSearch, renderedText, resultsHeading, searchUrl } from "./helpers";

for (const width of [320, 1280]) {
  test(`at ${width} px the Export menu is on screen and folds when the dialog opens`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 640 });
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const menu = page.locator("details.export-menu");
    await menu.locator("summary").click();
    await expect(menu).toHaveAttribute("open", "");
    for (const entry of await menu.getByRole("link").all()) {
      await expect(entry).toBeVisible();
      const box = (await entry.boundingBox())!;
      expect(box.x, `${await entry.textContent()} starts on screen`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${await entry.textContent()} ends on screen`).toBeLessThanOrEqual(width);
    }

    await menu.getByRole("link", { name: /^Export all results/ }).click();
    const dialog = page.locator("dialog.export-dialog");
    await expect(dialog.getByRole("heading", { name: "Export Search Results" })).toBeVisible();
    await expect(page.locator("details.export-menu")).not.toHaveAttribute("open", /.*/);
  });
}

for (const width of [320, 1280]) {
  test(`at ${width} px the button counts the ticked fields and the preview follows them, with and without JavaScript`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 640 });
    await openSearch(page, testInfo, searchUrl({ q: "pump", export: "all" }));
    const dialog = page.locator("dialog.export-dialog");
    await dialog.getByRole("button", { name: "Select None", exact: true }).click();
    await expect(dialog.locator('input[type="checkbox"]:checked')).toHaveCount(0);
    await expect.poll(() => renderedText(page, "export-submit")).toBe("Export CSV (0 fields)");
    await expect(dialog.locator("section.preview")).toBeHidden();

    const chosen = ["Item Number", "Status", "Manufacturer", "Quantity On Hand"];
    for (const label of chosen) await dialog.getByRole("checkbox", { name: label, exact: true }).check();
    await expect.poll(() => renderedText(page, "export-submit")).toBe("Export CSV (4 fields)");
    // The preview's columns: the ticked fields, in the list's order.
    const listed = (await dialog.locator(".field-grid label").allTextContents()).map((t) => t.trim());
    const inListOrder = (labels: string[]) => listed.filter((l) => labels.includes(l));
    const headers = dialog.locator("section.preview thead th:visible");
    await expect(headers).toHaveText(inListOrder(chosen));
    for (const row of await dialog.locator("section.preview tbody tr").all()) await expect(row.locator("td:visible")).toHaveCount(4);
    await dialog.getByRole("checkbox", { name: "Status", exact: true }).uncheck();
    await expect.poll(() => renderedText(page, "export-submit")).toBe("Export CSV (3 fields)");
    await expect(headers).toHaveText(inListOrder(chosen.filter((l) => l !== "Status")));
    // The button is on screen once scrolled to, within the width.
    const button = dialog.locator(".export-submit");
    await button.scrollIntoViewIfNeeded();
    const box = (await button.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
  });

  test(`at ${width} px Escape closes the export dialog, with and without JavaScript`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 640 });
    await openSearch(page, testInfo, searchUrl({ q: "pump", export: "all" }));
    const dialog = page.locator("dialog.export-dialog");
    await expect(dialog.getByRole("heading", { name: "Export Search Results" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(resultsHeading(page)).toBeVisible();
  });
}

for (const viewport of [
  { width: 360, height: 640 },
  { width: 1280, height: 900 },
]) {
  test(`at ${viewport.width}×${viewport.height} the dialog's Export button is on screen with every field ticked, no scrolling`, async ({ page }, testInfo) => {
    await page.setViewportSize(viewport);
    await openSearch(page, testInfo, searchUrl({ q: "pump", export: "all" }));
    const dialog = page.locator("dialog.export-dialog");
    await dialog.getByRole("button", { name: "Select All", exact: true }).click();
    const all = await dialog.getByRole("checkbox").count();
    expect(all).toBeGreaterThan(40);
    await expect(dialog.locator('input[type="checkbox"]:checked')).toHaveCount(all);
    // The focus on the dialog's title after Select All (its autofocus, or kept with JavaScript): the top of the dialog.
    await dialog.getByRole("heading", { name: "Export Search Results" }).focus();
    await expect(dialog.locator(".export-submit")).toBeInViewport();
    await expect(dialog.getByRole("link", { name: "Cancel", exact: true })).toBeInViewport();
  });
}

test("after the dialog's export the dialog is closed, the file downloaded and the header's box has the focus for the next scan", async ({ page }, testInfo) => {
  await openSearch(page, testInfo, searchUrl({ q: "pump", export: "all" }));
  const dialog = page.locator("dialog.export-dialog");
  const [download] = await Promise.all([page.waitForEvent("download"), dialog.locator(".export-submit").click()]);
  expect(download.suggestedFilename()).toMatch(/^all-results-\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(dialog).toHaveCount(0);
  await expect(resultsHeading(page)).toBeVisible();
  await expect(headerSearch(page)).toBeFocused();
  if (!isJs(testInfo)) {
    // The page the export returned to fetches the file itself, and offers it by hand.
    const link = page.getByRole("link", { name: "download it here" });
    await expect(page.getByRole("status").filter({ hasText: "If your download does not start" })).toBeVisible();
    expect(await link.getAttribute("href")).toMatch(/^\/crib-search\/export\.csv\?/);
  }
});

test("Select All and Select None submit to the dialog's page, never to the download (text browsers ignore formaction)", async ({ page }, testInfo) => {
  await openSearch(page, testInfo, searchUrl({ q: "pump", export: "all" }));
  const form = page.locator("dialog.export-dialog form.export-form");
  const action = await form.getAttribute("action");
  expect(action, "the form's own action, the one every submit uses in w3m").not.toContain("export.csv");
  for (const name of ["Select All", "Select None"]) {
    const button = form.getByRole("button", { name, exact: true });
    expect(await button.getAttribute("formaction")).toBeNull();
    expect(await button.getAttribute("name")).toBe("export-select");
  }
  if (isJs(testInfo)) return;
  let downloads = 0;
  page.on("download", () => downloads++);
  await form.getByRole("button", { name: "Select All", exact: true }).click();
  await expect(form.locator('input[type="checkbox"]:not(:checked)')).toHaveCount(0);
  await form.getByRole("button", { name: "Select None", exact: true }).click();
  await expect(form.locator('input[type="checkbox"]:checked')).toHaveCount(0);
  expect(downloads).toBe(0);
});

test("with JavaScript the download shows its progress while it streams, then saves the file", async ({ page }, testInfo) => {
  // Skipped in the no-JavaScript project on purpose: without the dialog's script there is no progress bar to see.
  test.skip(!isJs(testInfo), "the progress is drawn by the dialog's script; without it the browser's own download shows it");
  await openSearch(page, testInfo, searchUrl({ q: "pump", export: "all" }));
  const dialog = page.locator("dialog.export-dialog");
  const total = Number(/^(\d+) results/.exec((await dialog.locator("p.muted").first().textContent()) ?? "")?.[1]);
  expect(total).toBeGreaterThan(0);
  // The file is held back until the progress has been seen.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/crib-search/export.csv?**", async (route) => {
    await held;
    await route.continue();
  });
  const downloaded = page.waitForEvent("download");
  await dialog.locator(".export-submit").click();
  const status = dialog.getByRole("status");
  await expect(status.getByRole("progressbar", { name: "Export progress" })).toBeVisible();
  await expect(status).toContainText(`0 of ${total} records (0 %), about ${Math.ceil(total / 1000)} s left`);
  await expect(dialog.locator(".export-submit")).toHaveText("Exporting…");
  await expect(dialog.locator(".export-submit")).toBeDisabled();
  release();
  const download = await downloaded;
  expect(download.suggestedFilename()).toMatch(/^all-results-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await readFile((await download.path())!, "utf8");
  expect(text.trim().split(/\r?\n/)).toHaveLength(total + 1);
  // Done: the dialog closes by itself, back to the results.
  await expect(dialog).toHaveCount(0);
  await expect(resultsHeading(page)).toBeVisible();
});

test("with JavaScript a failed export asks whether to try again, and the retry downloads the file", async ({ page, consoleErrors }, testInfo) => {
  // Skipped in the no-JavaScript project on purpose: the browser's own download has no question to ask; the failure page offers Try Again.
  test.skip(!isJs(testInfo), "the question is the dialog script's; without it the failure page has its own Try Again");
  // The first request is refused on purpose: the browser reports it, and the dialog logs the failure its question points to.
  consoleErrors.expect(/^console\.error: Failed to load resource: net::ERR_CONNECTION_REFUSED \(http:\/\/[^/]+\/crib-search\/export\.csv\?/);
  consoleErrors.expect(/^console\.error: Export failed: TypeError: Failed to fetch\b/);
  await openSearch(page, testInfo, searchUrl({ q: "pump", export: "all" }));
  const dialog = page.locator("dialog.export-dialog");
  // The first request gets no answer at all; the retry goes through.
  let requests = 0;
  await page.route("**/crib-search/export.csv?**", async (route) => {
    requests++;
    if (requests === 1) await route.abort("connectionrefused");
    else await route.continue();
  });
  const questions: string[] = [];
  page.on("dialog", (question) => {
    questions.push(`${question.type()}: ${question.message()}`);
    void question.accept();
  });
  const downloaded = page.waitForEvent("download");
  await dialog.locator(".export-submit").click();
  const download = await downloaded;
  expect(questions).toHaveLength(1);
  expect(questions[0]).toMatch(/^confirm: Export failed: .+\. Please check the browser console for more details\. Would you like to try again\?$/);
  expect(requests).toBe(2);
  expect(download.suggestedFilename()).toMatch(/^all-results-\d{4}-\d{2}-\d{2}\.csv$/);
});

for (const theme of ["light", "dark"] as const) {
  test(`in the ${theme} theme the Content-Security-Policy allows no inline style but the preview's, whose :has() rules and the count still work`, async ({ page, context }, testInfo) => {
    if (theme === "dark") {
      const value = encodeURIComponent(Buffer.from(JSON.stringify("dark")).toString("base64"));
      await context.addCookies([{ name: "theme-storage", value, url: new URL(testInfo.project.use.baseURL!).origin }]);
    }
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    const csp = (await page.request.get(searchUrl({ q: "pump" }))).headers()["content-security-policy"] ?? "";
    expect(csp).toMatch(/style-src 'self' 'nonce-[^']+'/);
    expect(csp).not.toContain("unsafe-inline");
    // Opened from the menu: with JavaScript the dialog (and its <style>) is rendered in the browser.
    const menu = page.locator("details.export-menu");
    await menu.locator("summary").click();
    await menu.getByRole("link", { name: /^Export all results/ }).click();
    const dialog = page.locator("dialog.export-dialog");
    await expect(dialog.getByRole("heading", { name: "Export Search Results" })).toBeVisible();
    await dialog.getByRole("button", { name: "Select None", exact: true }).click();
    await expect(dialog.locator("section.preview")).toBeHidden();
    for (const label of ["Item Number", "Status"]) await dialog.getByRole("checkbox", { name: label, exact: true }).check();
    await expect.poll(() => renderedText(page, "export-submit")).toBe("Export CSV (2 fields)");
    await expect(dialog.locator("section.preview thead th:visible")).toHaveCount(2);
    expect(violations).toEqual([]);
  });
}
