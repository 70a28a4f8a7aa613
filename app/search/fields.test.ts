import { describe, expect, it } from "vitest";
import { ITEM_COLUMNS } from "./engines/embedded/schema";
import { fieldKey, fieldLabel, hasTypeSuffix, isHiddenField, resolveFacetField, visibleFields } from "./fields";
import { DEFAULT_SEARCH_CONFIG, type SearchConfig } from "./search-config";

const config = DEFAULT_SEARCH_CONFIG;

describe("fieldKey", () => {
  it("strips the attribute prefixes and the type suffix", () => {
    expect(fieldKey("item_number_s")).toBe("item_number");
    expect(fieldKey("attribute_status_s")).toBe("status");
    expect(fieldKey("attributes_colour_ss")).toBe("colour");
    expect(fieldKey("item_description_t")).toBe("item_description");
    expect(fieldKey("notes_txt")).toBe("notes");
    expect(fieldKey("attribute_quantity_on_hand_i")).toBe("quantity_on_hand");
    expect(fieldKey("sizes_is")).toBe("sizes");
    expect(fieldKey("length_l")).toBe("length");
    expect(fieldKey("lengths_ls")).toBe("lengths");
    expect(fieldKey("attribute_list_price_d")).toBe("list_price");
    expect(fieldKey("prices_ds")).toBe("prices");
    expect(fieldKey("weight_f")).toBe("weight");
    expect(fieldKey("attribute_creation_date_dt")).toBe("creation_date");
    expect(fieldKey("dates_dts")).toBe("dates");
    expect(fieldKey("item_number_ng")).toBe("item_number");
    expect(fieldKey("item_number_ngram")).toBe("item_number");
    expect(fieldKey("active_b")).toBe("active");
  });

  it("strips only one suffix and leaves keys and unknown endings alone", () => {
    expect(fieldKey("org_code")).toBe("org_code");
    expect(fieldKey("item_type")).toBe("item_type");
    expect(fieldKey("lead_time")).toBe("lead_time");
    expect(fieldKey("status_s_s")).toBe("status_s");
    expect(fieldKey("colour_x")).toBe("colour_x");
  });

  it("never strips a whole name away", () => {
    expect(fieldKey("_s")).toBe("_s");
    expect(fieldKey("attribute_")).toBe("attribute_");
    expect(fieldKey("attribute_s")).toBe("attribute");
    expect(fieldKey("_version_")).toBe("_version_");
    expect(fieldKey("id")).toBe("id");
  });

  it("gives every catalogue column a distinct key", () => {
    const keys = ITEM_COLUMNS.map((c) => fieldKey(c.name));
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe("hasTypeSuffix", () => {
  it("recognises index names", () => {
    expect(hasTypeSuffix("category_s")).toBe(true);
    expect(hasTypeSuffix("attribute_quantity_on_hand_i")).toBe(true);
    expect(hasTypeSuffix("category")).toBe(false);
    expect(hasTypeSuffix("item_type")).toBe(false);
  });
});

describe("fieldLabel", () => {
  it("uses the spec's labels for keys and index names", () => {
    expect(fieldLabel("org_code")).toBe("Org Code");
    expect(fieldLabel("org_code_s")).toBe("Org Code");
    expect(fieldLabel("quantity_on_hand")).toBe("Quantity On Hand");
    expect(fieldLabel("attribute_list_price_d")).toBe("List Price");
    expect(fieldLabel("price")).toBe("Price");
    expect(fieldLabel("attribute_alternate_manufacturer_part_number_s")).toBe("Alternate Manufacturer Part Number(s)");
    expect(fieldLabel("attribute_abc_class_name_s")).toBe("ABC Class Name");
    expect(fieldLabel("attribute_acmpn_s")).toBe("ACMPN");
    expect(fieldLabel("cmpn")).toBe("CMPN");
    expect(fieldLabel("attribute_flm_s")).toBe("FLM");
    expect(fieldLabel("attribute_bpa_number_s")).toBe("BPA Number");
    expect(fieldLabel("bpa_line_number")).toBe("BPA Line Number");
    expect(fieldLabel("attribute_bpa_price_d")).toBe("BPA Price");
    expect(fieldLabel("attribute_issue_uom_s")).toBe("Issue UOM");
    expect(fieldLabel("order_uom")).toBe("Order UOM");
    expect(fieldLabel("record_id")).toBe("Record ID");
    expect(fieldLabel("last_updated_by_s")).toBe("Last Updated By");
    expect(fieldLabel("last_modified_dt")).toBe("Last Modified");
    expect(fieldLabel("attribute_creation_date_dt")).toBe("Creation Date");
    expect(fieldLabel("item_description_t")).toBe("Item Description");
  });

  it("labels unknown fields by capitalising the words between underscores", () => {
    expect(fieldLabel("fims_number")).toBe("Fims Number");
    expect(fieldLabel("attribute_fims_number_s")).toBe("Fims Number");
    expect(fieldLabel("image_urls_s")).toBe("Image Urls");
    expect(fieldLabel("shelf__life")).toBe("Shelf Life");
    expect(fieldLabel("ItemDescription_t")).toBe("ItemDescription");
  });

  it("does not read labels from the object prototype", () => {
    expect(fieldLabel("constructor")).toBe("Constructor");
    expect(fieldLabel("__proto__")).toBe("Proto");
  });

  it("falls back to the name when it has no words", () => {
    expect(fieldLabel("_")).toBe("_");
  });
});

describe("isHiddenField", () => {
  it("shows every catalogue field, images and links included", () => {
    const hidden = ITEM_COLUMNS.map((c) => c.name).filter(isHiddenField);
    expect(hidden).toEqual([]);
    for (const name of ["url_s", "image_urls_s", "primary_image_url_s", "other_attachments_s"]) {
      expect(isHiddenField(name)).toBe(false);
    }
  });

  it("hides underscore fields, id, versioning, score and highlighting", () => {
    for (const name of ["_version_", "_lw_data_source_s", "_root_", "id", "score", "highlighting"]) {
      expect(isHiddenField(name), name).toBe(true);
    }
  });

  it("hides the named internal fields exactly as the spec names them", () => {
    for (const name of ["title", "sku", "price_d", "parentId", "body", "description", "Title"]) {
      expect(isHiddenField(name), name).toBe(true);
    }
    // description_t and description_s are item description fallbacks.
    for (const name of ["description_t", "description_s", "price", "title_s"]) {
      expect(isHiddenField(name), name).toBe(false);
    }
  });

  it("hides storage metadata in its connector spellings", () => {
    const names = [
      "recordId",
      "record-id",
      "object_key",
      "objectKey_s",
      "bucket_name",
      "bucketName",
      "bucket",
      "server",
      "Server",
      "Content-Type",
      "content_type_s",
      "contentType",
      "Content-Length",
      "size",
      "size_l",
      "Last-Modified",
      "lastModified_dt",
      "Creation-Date",
      "creationDate",
      "etag",
      "ETag",
      "x-amz-request-id",
      "x_amz_meta_owner_s",
      "x-goog-generation",
      "x-ms-blob-type",
    ];
    for (const name of names) expect(isHiddenField(name), name).toBe(true);
  });

  it("keeps item fields whose names look like storage metadata", () => {
    for (const name of ["last_modified_dt", "attribute_creation_date_dt", "record_id_s", "attribute_size_s", "attribute_server_s"]) {
      expect(isHiddenField(name), name).toBe(false);
    }
  });

  it("hides the 256- and 1024-sized variants", () => {
    for (const name of ["item_description_256", "item_description_1024", "item_description_256_t", "title_1024_s"]) {
      expect(isHiddenField(name), name).toBe(true);
    }
    expect(isHiddenField("attribute_size_2560_s")).toBe(false);
  });
});

describe("visibleFields", () => {
  it("lists display-order keys first, then the rest alphabetically, with labels", () => {
    const doc = {
      id: "1",
      zeta_s: "z",
      attribute_status_s: "Active",
      Alpha_s: "a",
      item_number_s: "WR55",
      beta_s: "b",
      org_code_s: "A01",
      _version_: 1,
      score: 2,
    };
    expect(visibleFields(doc, config.displayOrder)).toEqual([
      { name: "org_code_s", key: "org_code", label: "Org Code" },
      { name: "item_number_s", key: "item_number", label: "Item Number" },
      { name: "attribute_status_s", key: "status", label: "Status" },
      { name: "Alpha_s", key: "Alpha", label: "Alpha" },
      { name: "beta_s", key: "beta", label: "Beta" },
      { name: "zeta_s", key: "zeta", label: "Zeta" },
    ]);
  });

  it("is all alphabetical when there is no display order", () => {
    const doc = { id: "1", org_code_s: "A", category_s: "C", item_number_s: "I" };
    expect(visibleFields(doc, []).map((f) => f.key)).toEqual(["category", "item_number", "org_code"]);
  });

  it("prefers the string variant of a key, in either order", () => {
    expect(visibleFields({ status_t: "x", status_s: "y" }, []).map((f) => f.name)).toEqual(["status_s"]);
    expect(visibleFields({ status_s: "y", status_t: "x" }, []).map((f) => f.name)).toEqual(["status_s"]);
    expect(visibleFields({ tags_txt: "x", tags_ss: ["y"] }, []).map((f) => f.name)).toEqual(["tags_ss"]);
    expect(visibleFields({ weight_i: 1, attribute_weight_s: "M" }, []).map((f) => f.name)).toEqual(["attribute_weight_s"]);
  });

  it("prefers a variant with a value over an empty string variant", () => {
    expect(visibleFields({ status_s: "", status_t: "Active" }, []).map((f) => f.name)).toEqual(["status_t"]);
  });

  it("shows each catalogue field once", () => {
    const doc = Object.fromEntries(ITEM_COLUMNS.map((c) => [c.name, "x"]));
    const fields = visibleFields({ id: "1", ...doc }, config.displayOrder);
    expect(fields).toHaveLength(ITEM_COLUMNS.length);
    expect(fields.slice(0, 3).map((f) => f.name)).toEqual(["org_code_s", "item_number_s", "item_description_t"]);
  });
});

describe("facet fields", () => {
  it("keys facets like fields", () => {
    expect(fieldKey("category_s")).toBe("category");
    expect(fieldKey("attribute_status_s")).toBe("status");
  });

  it("resolves a facet key or full name to the configured field", () => {
    expect(resolveFacetField("category", config)).toBe("category_s");
    expect(resolveFacetField("category_s", config)).toBe("category_s");
    expect(resolveFacetField("status", config)).toBe("attribute_status_s");
    expect(resolveFacetField("attribute_status_s", config)).toBe("attribute_status_s");
    expect(resolveFacetField("quantity_on_hand", config)).toBe("attribute_quantity_on_hand_i");
    expect(resolveFacetField("cmpn", config)).toBe("attribute_cmpn_s");
  });

  it("returns null for fields that are not configured facets", () => {
    expect(resolveFacetField("colour", config)).toBeNull();
    expect(resolveFacetField("status_t", config)).toBeNull();
    expect(resolveFacetField("item_description_t", config)).toBeNull();
    expect(resolveFacetField("", config)).toBeNull();
  });

  it("also resolves shown facets missing from the full list", () => {
    const custom: SearchConfig = { ...config, facetFields: ["colour_s"], allFacetFields: ["category_s"] };
    expect(resolveFacetField("colour", custom)).toBe("colour_s");
    expect(resolveFacetField("category", custom)).toBe("category_s");
  });
});
