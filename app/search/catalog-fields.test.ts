import { describe, expect, it } from "vitest";
import { CATALOG_FIELDS, DISPLAY_ORDER, ITEM_NUMBER_FIELD, NUMBER_FIELDS, OPENING_NUMBER_FIELDS, PICK_LIST_COLUMNS, RESULT_COLUMNS } from "./catalog-fields";
import { SORT_OPTIONS } from "./search-view";

/** The lists every view reads from the field registry, against the spec's own words. */
describe("the field registry", () => {
  it("declares each field once, by name and by key", () => {
    expect(new Set(CATALOG_FIELDS.map((f) => f.name)).size).toBe(CATALOG_FIELDS.length);
    expect(new Set(CATALOG_FIELDS.map((f) => f.key)).size).toBe(CATALOG_FIELDS.length);
  });

  it("gives spec §3's display order", () => {
    expect(DISPLAY_ORDER).toEqual(
      (
        "org_code, item_number, item_description, status, stock_locator, subinventory, quantity_on_hand, quantity_on_order, " +
        "item_type, manufacturer, manufacturer_part_number, alternate_manufacturer_part_number, org_max_stock_level, " +
        "org_min_stock_level, subinventory_max_stock_level, subinventory_min_stock_level, lead_time, list_price, unit_cost, " +
        "bpa_price, issue_uom, order_uom, conversion_rate, flm, bpa_number, bpa_line_number, supplier, supplier_site, " +
        "supplier_part_number, category, org_notes, abc_class_name, fims_number, creation_date, purchasable, costing_enabled, " +
        "inventory_valued, planning_method, min_max_category, cycle_count_flag, on_cycle_count, cmpn, acmpn, image_urls, " +
        "other_attachments, primary_image_url"
      ).split(", "),
    );
  });

  it("gives spec §3's result-list fields (id implied) as the result columns", () => {
    expect(RESULT_COLUMNS).toEqual(["item_number", "item_description", "manufacturer", "manufacturer_part_number", "category", "status", "quantity_on_hand"]);
  });

  it("gives spec §9's sort options, relevance first", () => {
    expect(SORT_OPTIONS).toEqual([
      { value: "relevance", label: "Relevance" },
      { value: "org_code asc", label: "Org Code A-Z" },
      { value: "org_code desc", label: "Org Code Z-A" },
      { value: "item_type asc", label: "Item Type A-Z" },
      { value: "item_type desc", label: "Item Type Z-A" },
    ]);
  });

  it("gives the pick list's columns in the order a picker reads them", () => {
    expect(PICK_LIST_COLUMNS).toEqual(["stock_locator", "subinventory", "item_number", "item_description", "quantity_on_hand", "issue_uom", "status"]);
  });

  it("names the part numbers, the item number and the manufacturer's opening their item", () => {
    expect(OPENING_NUMBER_FIELDS).toEqual([
      ITEM_NUMBER_FIELD,
      "attribute_manufacturer_part_number_s",
      "attribute_cmpn_s",
    ]);
    expect(NUMBER_FIELDS.map((f) => f.name)).toEqual(
      expect.arrayContaining(["attribute_alternate_manufacturer_part_number_s", "attribute_supplier_part_number_s", "attribute_acmpn_s"]),
    );
    expect(ITEM_NUMBER_FIELD).toBe("item_number_s");
  });
});
