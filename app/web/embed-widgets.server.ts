/**
 * `/embed/widgets.js`: the embeddable widgets (app/embed/widgets.ts) as one small script with no
 * dependencies, made once when the server starts: the text of every function of the widgets'
 * module, as the server's own build compiled it, then the call that defines the elements with
 * the portal's settings. The settings come from the modules that own them, so the widgets sort,
 * page and name fields as the portal does (docs/decisions/034).
 */
import * as widgets from "~/embed/widgets";
import type { WidgetSettings } from "~/embed/widgets";
import { catalogName, ITEM_NUMBER_FIELD } from "~/search/catalog-fields";
import { DESCRIPTION_FIELDS } from "~/search/field-format";
import { HL_POST, HL_PRE } from "~/search/highlights";
import { HOME_PATH, LOGIN_PATH, productPath, SEARCH_API_PATH, SEARCH_PATH, SIGNALS_API_PATH, SUGGESTIONS_API_PATH } from "~/search/paths";
import { SORT_OPTIONS } from "~/search/search-view";
import { DEFAULT_ROWS } from "~/search/state";

export const WIDGET_SETTINGS: WidgetSettings = {
  rows: DEFAULT_ROWS,
  // details-bom-signin §9: the facet widget shows at most 10 values; the search box suggests from
  // 3 characters, 300 ms after the last key (the portal's own type-ahead differs: search-input.tsx).
  facetValues: 10,
  minChars: 3,
  debounceMs: 300,
  suggestions: 5,
  sorts: SORT_OPTIONS,
  marks: HL_PRE + HL_POST,
  fields: { itemNumber: ITEM_NUMBER_FIELD, title: ["title", ...DESCRIPTION_FIELDS], category: catalogName("category") },
  paths: {
    search: SEARCH_PATH,
    signIn: `${LOGIN_PATH}?${new URLSearchParams({ returnTo: HOME_PATH })}`,
    product: productPath(""),
    api: { search: SEARCH_API_PATH, suggestions: SUGGESTIONS_API_PATH, signals: SIGNALS_API_PATH },
  },
};

/** The script's text: the widgets' functions (each names the others by the name it has here) and the call. */
function widgetsScript(settings: WidgetSettings): string {
  const parts = Object.values(widgets).filter((part) => typeof part === "function");
  return `(function () {\n"use strict";\n${parts.map(String).join("\n")}\n${widgets.defineWidgets.name}(${JSON.stringify(settings)});\n})();\n`;
}

export const WIDGETS_JS = widgetsScript(WIDGET_SETTINGS);
