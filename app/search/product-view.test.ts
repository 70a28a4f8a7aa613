import { describe, expect, it } from "vitest";
import { formatForPeople, specificationOf } from "./product-view";

describe("formatForPeople", () => {
  it("writes dates for people, prices with their currency, lead times in days", () => {
    expect(formatForPeople("creation_date", "2024-03-05T00:00:00Z")).toBe("5 March 2024");
    expect(formatForPeople("last_modified", "2026-11-27T23:59:59Z")).toBe("27 November 2026");
    expect(formatForPeople("list_price", 12.5)).toBe("$12.50 USD");
    expect(formatForPeople("unit_cost", "3")).toBe("$3.00 USD");
    expect(formatForPeople("lead_time", 14)).toBe("14 days");
    expect(formatForPeople("lead_time", 1)).toBe("1 day");
  });

  it("leaves what is not what its field says as stored, and blanks N/A", () => {
    expect(formatForPeople("creation_date", "soon")).toBe("soon");
    expect(formatForPeople("list_price", "call")).toBe("call");
    expect(formatForPeople("lead_time", null)).toBe("N/A");
    expect(formatForPeople("item_number", "MRO-1")).toBe("MRO-1");
  });

  it("is what the item page's specification shows", () => {
    const rows = specificationOf({ id: "1", item_number_s: "MRO-1", attribute_list_price_d: 4, attribute_lead_time_i: 7 }, ["item_number", "lead_time", "list_price"]);
    expect(rows.map((r) => r.value)).toEqual(["MRO-1", "7 days", "$4.00 USD"]);
  });
});
