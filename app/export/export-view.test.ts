import { describe, expect, it } from "vitest";
import { searchExportHref } from "./export-view";

describe("searchExportHref", () => {
  it("sends the form's fields as a GET submission would, repeated ones in order", () => {
    const form = new FormData();
    form.append("q", "drain pump");
    form.append("f", "category:Motors & Pumps");
    form.append("fields", "item_number");
    form.append("fields", "title");
    form.append("export-go", "1");
    expect(searchExportHref(form)).toBe("/crib-search/export.csv?q=drain+pump&f=category%3AMotors+%26+Pumps&fields=item_number&fields=title&export-go=1");
  });
});
