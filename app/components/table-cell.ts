/** A BOM table's cell (BOM, Where Used, BOM lines): an empty value reads "N/A". */
export function cell(value: string | number | null): string {
  return value === null || value === "" ? "N/A" : String(value);
}
