import { describe, expect, it } from "vitest";
import type { Doc } from "../engine";
import { EMPTY_STATE } from "../state";
import { jumpTarget, MAX_NUMBER_LIST, numberListOf } from "./number-jump";
import { numberKey } from "./query";

const doc = (id: string, fields: Record<string, string>) => ({ id, ...fields }) as unknown as Doc;

describe("jumpTarget", () => {
  it("opens the one item whose item number, manufacturer part number or CMPN has the key", () => {
    const docs = [
      doc("1", { item_number_s: "WR55X10942" }),
      doc("2", { item_number_s: "WB44T10011", attribute_manufacturer_part_number_s: "DC63-17530B" }),
      doc("3", { item_number_s: "WH48X43161", attribute_cmpn_s: "835C5513P470", attribute_acmpn_s: "164J1446P957" }),
    ];
    expect(jumpTarget(docs, numberKey("wr55x10942"))?.id).toBe("1");
    expect(jumpTarget(docs, numberKey("DC6317530B"))?.id).toBe("2");
    expect(jumpTarget(docs, numberKey("835c5513p470"))?.id).toBe("3");
    // An alternate number lists its items rather than opening one.
    expect(jumpTarget(docs, numberKey("164J1446P957"))).toBeNull();
  });

  it("opens nothing when two items share the number", () => {
    const docs = [doc("1", { item_number_s: "A1", attribute_cmpn_s: "835C5513P470" }), doc("2", { item_number_s: "B2", attribute_cmpn_s: "835C5513P470" })];
    expect(jumpTarget(docs, numberKey("835C5513P470"))).toBeNull();
  });
});

describe("numberListOf", () => {
  const list = (q: string, over: Partial<typeof EMPTY_STATE> = {}, params = "") => numberListOf({ ...EMPTY_STATE, q, ...over }, new URLSearchParams(params));

  it("reads two or more numbers separated by spaces, commas, semicolons or new lines, in order, once each", () => {
    expect(list("WR55X10999, MRO-3027901;WD92T30570\nmro-3027901")).toEqual(["WR55X10999", "MRO-3027901", "WD92T30570"]);
    expect(list("WR55X10999 WD92T30570")).toEqual(["WR55X10999", "WD92T30570"]);
  });

  it("leaves every other query to the search: words, one number, phrases, exclusions, later pages, search-within", () => {
    expect(list("WR55X10999")).toBeNull();
    expect(list("drain pump")).toBeNull();
    expect(list("pump WR55X10999")).toBeNull();
    expect(list('"WR55X10999" WD92T30570')).toBeNull();
    expect(list("WR55X10999 -WD92T30570")).toBeNull();
    expect(list("WR55X10999 WD92T30570", { page: 2 })).toBeNull();
    expect(list("WR55X10999 WD92T30570", { within: ["seal"] })).toBeNull();
    expect(list("WR55X10999 WD92T30570", {}, "list=1")).toBeNull();
  });

  it("takes at most MAX_NUMBER_LIST numbers", () => {
    const many = Array.from({ length: MAX_NUMBER_LIST + 1 }, (_, i) => `MRO-${1000 + i}`);
    expect(list(many.slice(0, MAX_NUMBER_LIST).join(" "))).toHaveLength(MAX_NUMBER_LIST);
    expect(list(many.join(" "))).toBeNull();
  });
});
