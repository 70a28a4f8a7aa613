/**
 * The export without JavaScript (decision 043): the dialog's form goes to the search page, which
 * shows the dialog again for Select All / None or a refusal, and otherwise answers the results
 * page without the dialog, whose refresh starts the download and whose header box takes the focus.
 */
import { describe, expect, it } from "vitest";
import { SEARCH_PATH } from "../search-urls";
import { decodeHtml, textOf } from "./html";
import { get } from "./server";

const dialogForm = (html: string) => /<form\b[^>]*class="[^"]*export-form[^"]*"[^>]*>/.exec(html)?.[0] ?? null;
const refreshOf = (html: string) => {
  const meta = /<meta\b[^>]*http-equiv="refresh"[^>]*>/.exec(html)?.[0];
  const content = meta && /content="([^"]*)"/.exec(meta)?.[1];
  return content ? decodeHtml(content) : null;
};
const searchBox = (html: string) => /<input\b[^>]*id="site-search"[^>]*>/.exec(html)?.[0] ?? "";

describe("the export dialog without JavaScript", () => {
  it("sends every submit to the search page, Select All / None among them, never to the download", async () => {
    const html = await (await get(`${SEARCH_PATH}?q=pump&export=all`)).text();
    const form = dialogForm(html);
    expect(form).toContain(`action="${SEARCH_PATH}"`);
    expect(html).not.toMatch(/formaction=/i);
    for (const value of ["all", "none"]) expect(html).toMatch(new RegExp(`<button[^>]*name="export-select"[^>]*value="${value}"`));
  });

  it("Select All comes back as the dialog with every box ticked", async () => {
    const html = await (await get(`${SEARCH_PATH}?q=pump&export=all&export-select=all&fields=item_number`)).text();
    expect(dialogForm(html)).not.toBeNull();
    const boxes = [...html.matchAll(/<input\b[^>]*type="checkbox"[^>]*name="fields"[^>]*>/g)].map((m) => m[0]);
    expect(boxes.length).toBeGreaterThan(40);
    expect(boxes.every((box) => /\schecked=""/.test(box))).toBe(true);
  });

  it("Export CSV answers the results without the dialog, refreshing to the file, the header box focused", async () => {
    const response = await get(`${SEARCH_PATH}?q=pump&export=all&export-go=1&fields=item_number&fields=status&filename=Shift+Report`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(dialogForm(html)).toBeNull();
    const refresh = refreshOf(html);
    expect(refresh).toMatch(/^0;url=\/crib-search\/export\.csv\?/);
    const file = new URL(refresh!.slice("0;url=".length), "http://portal");
    expect(file.searchParams.getAll("fields")).toEqual(["item_number", "status"]);
    expect(file.searchParams.get("filename")).toBe("Shift Report");
    expect(file.searchParams.get("q")).toBe("pump");
    expect(searchBox(html)).toMatch(/\sautofocus=""/);
    expect(textOf(html)).toContain("If your download does not start, download it here");
  });

  it("an export of no field comes back as the dialog with the message, and no refresh", async () => {
    const html = await (await get(`${SEARCH_PATH}?q=pump&export=all&export-go=1&fields=`)).text();
    expect(dialogForm(html)).not.toBeNull();
    expect(refreshOf(html)).toBeNull();
    expect(textOf(html)).toContain("Export validation failed: Select at least one field to export");
  });
});

describe("the item page's Export without JavaScript", () => {
  it("links to the item page, which refreshes to the file with the header box focused", async () => {
    const search = await (await get(`${SEARCH_PATH}?q=pump`)).text();
    const itemHref = decodeHtml(/href="(\/product\/[^"?]+)[^"]*"/.exec(search)?.[1] ?? "");
    expect(itemHref).toMatch(/^\/product\//);
    const item = await (await get(itemHref)).text();
    const exportHref = decodeHtml(/<a\b[^>]*href="([^"]*)"[^>]*>(?:<!-- -->)?Export \(/.exec(item)?.[1] ?? "");
    expect(exportHref).toMatch(/^\/product\/[^/?]+\?(.*&)?export=csv/);
    const page = await (await get(exportHref)).text();
    expect(refreshOf(page)).toMatch(/^0;url=\/product\/[^/]+\/export\.csv/);
    expect(searchBox(page)).toMatch(/\sautofocus=""/);
  });
});
