import { describe, expect, it } from "vitest";
import { unknownNames } from "../../tests/support/browser-script";
import { SORT_OPTIONS } from "~/search/search-view";
import { WIDGET_SETTINGS, WIDGETS_JS } from "./embed-widgets.server";

describe("/embed/widgets.js", () => {
  it("names nothing but its own functions and the browser's", () => {
    expect(unknownNames(WIDGETS_JS)).toEqual([]);
  });

  it("would say so of a name it lacks, or of a Node global", () => {
    expect(unknownNames(WIDGETS_JS.replace(/^function plainText\(/m, "function plainTxt("))).not.toEqual([]);
    expect(unknownNames(`${WIDGETS_JS}\nBuffer.from("x");`)).toEqual([expect.stringMatching(/Cannot find name 'Buffer'/)]);
  });

  it("carries the portal's settings: the sort menu, a page of the search's default size", () => {
    expect(WIDGET_SETTINGS.sorts).toBe(SORT_OPTIONS);
    expect(WIDGET_SETTINGS.rows).toBe(20);
    expect(WIDGETS_JS).toContain(JSON.stringify(WIDGET_SETTINGS));
    expect(WIDGETS_JS).toContain(`"Org Code A-Z"`);
  });
});
