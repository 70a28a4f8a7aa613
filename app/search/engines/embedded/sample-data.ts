import type { BomDoc, BomType, Doc } from "../../engine";
import { BLOCK, blockFamilies, itemSerial, pad } from "./sample-item-numbers";
import { mix, Rng } from "./sample-random";
import {
  ASSET_GROUPS,
  CATEGORIES,
  DISTRIBUTORS,
  EQUIPMENT,
  ITEM_TYPES,
  MANUFACTURERS,
  MIN_MAX_CATEGORIES,
  ORGS,
  PLANNING,
  PM_INTERVALS,
  SITES,
  STATUSES,
  SUBINVENTORIES,
  TOOLING,
  USERS,
  type Appliance,
  type Category,
} from "./sample-vocabulary";

/**
 * Deterministic sample catalogue: appliance parts of six plants, with stock, suppliers, prices and
 * bills of materials. Same seed and count give the same documents, so demos, tests and benchmarks
 * can name items that exist.
 *
 * Every item is generated from its own PRNG stream (seeded by the catalogue seed and its index), so
 * `sampleItem(i)` is random access and `generateItems` streams a million items in constant memory.
 * Item numbers are unique by construction (sample-item-numbers.ts); the words come from
 * sample-vocabulary.ts.
 *
 * Properties the rest of the product relies on (sample-data.test.ts checks them):
 * - statuses include inactive ones (Inactive, Obsolete - Inactive) besides a majority of Active;
 * - most columns are filled for most items, but every optional column is null for some items
 *   (min/max levels are null for "Not Planned" items; images and URLs exist for a few only);
 * - image paths are relative `/images/...` paths that do not exist, so the "No Image" placeholder
 *   shows; `url_s` points at example.com;
 * - dates are UTC instants in the form the importer stores (`2016-04-09T13:05:44Z`).
 *
 * BOMs (`generateBoms`) reference real item numbers of a catalogue of the same size and seed:
 * - about 1.5 records per item, heavily skewed: from a few thousand items up, a handful of
 *   components are used 30+ times (several pages of Where Used at 5 per section), while about 40%
 *   of the items are used nowhere;
 * - `asset` records come from plant equipment (AST-…), `pm` records from preventive-maintenance
 *   kits (PM-…) that hold wear parts only (filters, belts, bearings, seals, gaskets, lamps, hoses),
 *   `other` records from tooling fixtures (TL-…). Equipment rarely uses wear parts, so there are
 *   components whose records are all `asset` and components whose records are all `pm`.
 */

export const DEFAULT_SAMPLE_SEED = 20240601;

/** Beyond this the smallest family runs out of serials and numbers would repeat. */
export const MAX_SAMPLE_ITEMS = 10_000_000;

const APPLIANCE_CATEGORY_WEIGHTS = CATEGORIES.map((c) => [c, 4] as const);
const MRO_CATEGORY_WEIGHTS = CATEGORIES.filter((c) => c.mro).map((c) => [c, c.name === "Fasteners" ? 8 : 3] as const);

/** What BOM generation needs to know about an item, without building the whole document. */
export interface SampleItemKey {
  index: number;
  id: string;
  itemNumber: string;
  category: string;
  wear: boolean;
  orgCode: string;
}

interface ItemBasics extends SampleItemKey {
  /** Plant-maintenance stock: its description names no appliance. */
  plant: boolean;
  appliance: Appliance;
  categoryDef: Category;
  rng: Rng;
}

function itemBasics(index: number, seed: number, families?: number[]): ItemBasics {
  const { family: def, serial } = itemSerial(index, seed, families);
  const rng = new Rng(mix(seed, index));
  const categoryDef = rng.weighted(def.mro ? MRO_CATEGORY_WEIGHTS : APPLIANCE_CATEGORY_WEIGHTS);
  const appliance = rng.pick(categoryDef.appliances);
  return {
    index,
    id: `ITEM-${pad(index + 1, 7)}`,
    itemNumber: def.format(serial, appliance, rng),
    category: categoryDef.name,
    wear: categoryDef.wear === true,
    orgCode: rng.weighted(ORGS),
    plant: def.mro,
    appliance,
    categoryDef,
    rng,
  };
}

function checkCount(count: number): void {
  if (!Number.isSafeInteger(count) || count < 0 || count > MAX_SAMPLE_ITEMS) {
    throw new RangeError(`sample size must be a whole number from 0 to ${MAX_SAMPLE_ITEMS}, got ${count}`);
  }
}

/** The key facts of item `index` (0-based) of a sample catalogue. */
export function sampleItemKey(index: number, seed = DEFAULT_SAMPLE_SEED): SampleItemKey {
  const item = itemBasics(index, seed);
  return {
    index,
    id: item.id,
    itemNumber: item.itemNumber,
    category: item.category,
    wear: item.wear,
    orgCode: item.orgCode,
  };
}

// ---------------------------------------------------------------------------------------------
// Items

const round2 = (n: number) => Math.round(n * 100) / 100;

/** UTC instant without milliseconds, the form the importer stores. */
function instant(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

const CREATED_FROM = Date.UTC(2008, 0, 1);
const CREATED_TO = Date.UTC(2024, 11, 31);
const MODIFIED_TO = Date.UTC(2025, 5, 30);

function partNumber(rng: Rng, manufacturer: string): string {
  switch (manufacturer) {
    case "Embraco":
      return `${rng.pick(["EMX", "NEK", "FFU", "EMY"])}${rng.digits(2)}${rng.letters(3)}`;
    case "Tecumseh":
      return `${rng.pick(["AE", "AK", "CAJ"])}${rng.digits(4)}${rng.letters(1)}-${rng.letters(2)}`;
    case "SKF":
    case "Timken":
    case "NSK":
      return `${rng.pick(["62", "63", "60"])}${rng.digits(2)}-${rng.pick(["2RS", "2Z", "ZZ", "RS1"])}`;
    case "Robertshaw":
    case "Invensys":
      return `${rng.digits(3)}-${rng.digits(3)}-${rng.digits(3)}`;
    default:
      return rng.chance(0.5)
        ? `${rng.letters(rng.int(2, 3))}${rng.digits(rng.int(3, 5))}${rng.chance(0.4) ? rng.letters(1) : ""}`
        : `${rng.digits(3)}${rng.letters(1)}${rng.digits(4)}`;
  }
}

function description(rng: Rng, item: ItemBasics): string {
  const c = item.categoryDef;
  const parts: string[] = [];
  if (!item.plant && rng.chance(0.45)) parts.push(item.appliance);
  if (rng.chance(0.75)) parts.push(rng.pick(c.qualifiers));
  parts.push(rng.pick(c.nouns));
  if (rng.chance(0.15)) parts.push(rng.pick(["Assembly", "Kit", "Replacement"]));
  if (rng.chance(0.6)) parts.push(rng.pick(c.specs));
  // A doubled word ("Drain Drain Pump", "Wall Oven Oven Lamp") reads as a data error, not as realism.
  const words = parts.join(" ").split(" ");
  return words.filter((w, i) => i === 0 || w.toLowerCase() !== words[i - 1]!.toLowerCase()).join(" ");
}

const yn = (rng: Rng, pYes: number) => (rng.chance(pYes) ? "Y" : "N");
const maybe = <T>(rng: Rng, pNull: number, value: () => T): T | null => (rng.chance(pNull) ? null : value());

/** Builds item `index` (0-based) of a sample catalogue. */
export function sampleItem(index: number, seed = DEFAULT_SAMPLE_SEED): Doc {
  return buildItem(itemBasics(index, seed), seed);
}

/** Min and max stock levels of a planned item (none when it is not planned). */
function stockLevels(rng: Rng, planning: string) {
  if (planning === "Not Planned") return { subMin: null, subMax: null, orgMin: null, orgMax: null };
  const subMin = rng.int(0, 40);
  const subMax = subMin + rng.int(2, 200);
  const orgMin = subMin * rng.int(1, 3);
  const orgMax = Math.max(orgMin + 1, subMax * rng.int(1, 3));
  return { subMin, subMax, orgMin, orgMax };
}

/** The kinds of an item's notes; one is picked (and only then drawn) for the items that have one. */
function noteMakers(rng: Rng, item: ItemBasics, seed: number): (() => string)[] {
  return [
    () => `Critical spare for ${rng.pick(["Line 1", "Line 2", "Line 3", "the foam line", "the paint shop"])} - keep ${rng.int(1, 4)} on shelf`,
    () => {
      // Only an earlier item is sure to exist in a catalogue of any size.
      if (item.index === 0) return "Sole source - no substitute";
      return `Substitute ${sampleItemKey(mix(seed, item.index, 5) % item.index, seed).itemNumber} when out of stock`;
    },
    () => "Vendor managed inventory - do not place manual orders",
    () => "Quarantine on receipt for QA inspection",
    () => `Order in multiples of ${rng.pick([5, 10, 25, 50])}`,
    () => `Shared with ${rng.pick(ORGS)[0]} - request a transfer before buying`,
    () => "Hazmat: store in the flammables cabinet",
    () => "Superseded by engineering change; use remaining stock first",
  ];
}

function buildItem(item: ItemBasics, seed: number): Doc {
  const { rng, categoryDef: c } = item;
  const status = rng.weighted(STATUSES);
  const inactive = status !== "Active" && status !== "Pending" && status !== "Engineering Hold";
  const itemType = rng.weighted(ITEM_TYPES);

  const manufacturer = rng.chance(0.85) ? rng.pick(c.manufacturers) : rng.pick(MANUFACTURERS);
  const direct = rng.chance(0.3);
  const supplier = direct ? manufacturer : rng.pick(DISTRIBUTORS);

  const unitCost = round2(Math.max(0.01, rng.logUniform(c.cost[0], c.cost[1])));
  let listPrice = round2(unitCost * (1.15 + rng.float() * 1.05));
  if (listPrice <= unitCost) listPrice = round2(unitCost + 0.01);
  const hasBpa = rng.chance(0.6);

  const issueUom = rng.pick(c.uoms);
  const orderUom = issueUom === "EA" && rng.chance(0.2) ? rng.pick(["BX", "PK"]) : issueUom;
  const conversion = orderUom === issueUom ? 1 : rng.pick([10, 12, 25, 50, 100]);

  const planning = rng.weighted(PLANNING);
  const { subMin, subMax, orgMin, orgMax } = stockLevels(rng, planning);
  const onHand = inactive && rng.chance(0.6) ? 0 : rng.chance(0.15) ? 0 : Math.floor(rng.logUniform(1, 5000));
  const onOrder = inactive || rng.chance(0.6) ? 0 : Math.floor(rng.logUniform(1, 2000));

  const created = CREATED_FROM + rng.float() * (CREATED_TO - CREATED_FROM);
  const modified = created + rng.float() * (MODIFIED_TO - created);
  const image = rng.chance(0.05);

  const notes = noteMakers(rng, item, seed);

  return {
    id: item.id,
    org_code_s: item.orgCode,
    item_number_s: item.itemNumber,
    item_description_t: description(rng, item),
    attribute_status_s: status,
    attribute_stock_locator_s: maybe(rng, 0.05, () => `${rng.letters(1, "ABCDEFGH")}-${pad(rng.int(1, 40), 2)}-${pad(rng.int(1, 12), 2)}`),
    attribute_subinventory_s: maybe(rng, 0.03, () => rng.weighted(SUBINVENTORIES)),
    attribute_quantity_on_hand_i: maybe(rng, 0.02, () => onHand),
    attribute_quantity_on_order_i: maybe(rng, 0.05, () => onOrder),
    attribute_item_type_s: itemType,
    manufacturer_s: maybe(rng, 0.03, () => manufacturer),
    attribute_manufacturer_part_number_s: maybe(rng, 0.05, () => partNumber(rng, manufacturer)),
    attribute_alternate_manufacturer_part_number_s: rng.chance(0.25) ? partNumber(rng, rng.pick(c.manufacturers)) : null,
    attribute_org_max_stock_level_i: orgMax,
    attribute_org_min_stock_level_i: orgMin,
    attribute_subinventory_max_stock_level_i: subMax,
    attribute_subinventory_min_stock_level_i: subMin,
    attribute_lead_time_i: maybe(rng, 0.05, () => rng.pick([1, 2, 3, 5, 7, 10, 14, 21, 28, 30, 45, 60, 90, 120])),
    attribute_list_price_d: maybe(rng, 0.04, () => listPrice),
    attribute_unit_cost_d: maybe(rng, 0.04, () => unitCost),
    attribute_bpa_price_d: hasBpa ? round2(unitCost * (0.88 + rng.float() * 0.12)) : null,
    attribute_issue_uom_s: issueUom,
    attribute_order_uom_s: orderUom,
    attribute_conversion_rate_d: conversion,
    attribute_flm_s: maybe(rng, 0.1, () => String(orderUom === issueUom ? rng.pick([1, 1, 1, 2, 5, 10]) : conversion)),
    attribute_bpa_number_s: hasBpa ? `${rng.pick(["41", "42", "43"])}${rng.digits(5)}` : null,
    attribute_bpa_line_number_s: hasBpa ? String(rng.int(1, 60)) : null,
    attribute_supplier_s: maybe(rng, 0.04, () => supplier),
    attribute_supplier_site_s: maybe(rng, 0.06, () => `${rng.pick(SITES)}-${pad(rng.int(1, 4), 2)}`),
    attribute_supplier_part_number_s: maybe(rng, 0.08, () =>
      direct ? partNumber(rng, manufacturer) : `${rng.letters(2)}${rng.digits(5)}`,
    ),
    category_s: maybe(rng, 0.02, () => c.name),
    attribute_org_notes_t: rng.chance(0.15) ? rng.pick(notes)() : null,
    attribute_abc_class_name_s: maybe(rng, 0.05, () => rng.weighted([["A", 20], ["B", 30], ["C", 50]] as const)),
    attribute_fims_number_s: rng.chance(0.3) ? `F${rng.digits(6)}` : null,
    attribute_creation_date_dt: instant(created),
    attribute_purchasable_s: itemType === "Assembly" ? yn(rng, 0.2) : yn(rng, 0.95),
    attribute_costing_enabled_s: yn(rng, 0.9),
    attribute_inventory_valued_s: yn(rng, itemType === "Tooling" ? 0.3 : 0.92),
    attribute_planning_method_s: planning,
    attribute_min_max_category_s: planning === "Not Planned" ? null : rng.pick(MIN_MAX_CATEGORIES),
    attribute_cycle_count_flag_s: yn(rng, itemType === "Consumable" ? 0.3 : 0.8),
    attribute_on_cycle_count_s: yn(rng, 0.25),
    attribute_cmpn_s: maybe(rng, 0.1, () => `${rng.digits(3)}${rng.letters(1)}${rng.digits(4)}P${rng.digits(3)}`),
    attribute_acmpn_s: rng.chance(0.25) ? `${rng.digits(3)}${rng.letters(1)}${rng.digits(4)}P${rng.digits(3)}` : null,
    image_urls_s: image && rng.chance(0.5) ? `/images/parts/${item.itemNumber}.jpg, /images/parts/${item.itemNumber}-2.jpg` : null,
    other_attachments_s: rng.chance(0.03) ? `/attachments/${item.itemNumber}-spec.pdf` : null,
    primary_image_url_s: image ? `/images/parts/${item.itemNumber}.jpg` : null,
    url_s: rng.chance(0.1) ? `https://parts.example.com/catalog/${encodeURIComponent(item.itemNumber)}` : null,
    last_updated_by_s: rng.pick(USERS),
    last_modified_dt: instant(modified),
  };
}

/** Streams `count` sample items in index order; memory use does not grow with `count`. */
export function* generateItems(count: number, seed = DEFAULT_SAMPLE_SEED): Generator<Doc> {
  checkCount(count);
  let families: number[] = [];
  for (let index = 0; index < count; index++) {
    if (index % BLOCK === 0) families = blockFamilies(index / BLOCK, seed);
    yield buildItem(itemBasics(index, seed, families), seed);
  }
}

// ---------------------------------------------------------------------------------------------
// Bills of materials

/** Bijection of 0..n-1 (a·x + b mod n with gcd(a, n) = 1), so popular ranks land on scattered items. */
function permutation(n: number, seed: number): (x: number) => number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let a = 1 + (mix(seed, 0xa) % Math.max(1, n - 1));
  while (n > 1 && gcd(a, n) !== 1) a++;
  const b = mix(seed, 0xb) % Math.max(1, n);
  return (x) => (a * x + b) % n;
}

/**
 * Streams the BOM records of a sample catalogue of `itemCount` items (same seed). Components are
 * drawn from a steep power law over a shuffled item order: the top ranks collect dozens of uses,
 * the tail none.
 */
export function* generateBoms(itemCount: number, seed = DEFAULT_SAMPLE_SEED): Generator<BomDoc> {
  checkCount(itemCount);
  if (itemCount === 0) return;
  const assetOrder = permutation(itemCount, mix(seed, 1));
  const pmOrder = permutation(itemCount, mix(seed, 2));
  // u³ puts about (r/n)^(1/3) of the draws on the first r ranks: steep head, long empty tail.
  const draw = (rng: Rng, order: (x: number) => number) => order(Math.floor(itemCount * rng.float() ** 3));

  /** A component for `type`, or null when the draws keep missing (tiny catalogues without wear parts). */
  const component = (rng: Rng, type: BomType): SampleItemKey | null => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const key = sampleItemKey(draw(rng, type === "pm" ? pmOrder : assetOrder), seed);
      // PM kits hold wear parts only; equipment BOMs seldom list them (they are bought through PM).
      if (type === "pm" ? key.wear : !key.wear || rng.chance(0.1)) return key;
    }
    return null;
  };

  const parents: { type: BomType; count: number; prefix: string; components: [number, number] }[] = [
    { type: "asset", count: Math.max(3, Math.ceil(itemCount / 10)), prefix: "AST", components: [3, 21] },
    { type: "pm", count: Math.max(2, Math.ceil(itemCount / 40)), prefix: "PM", components: [4, 18] },
    { type: "other", count: Math.max(1, Math.ceil(itemCount / 100)), prefix: "TL", components: [2, 8] },
  ];

  for (const [kind, parent] of parents.entries()) {
    for (let p = 0; p < parent.count; p++) {
      const rng = new Rng(mix(seed, 0xb0b, kind, p));
      const assetNumber = `${parent.prefix}-${pad(p + 1, 5)}`;
      const org = rng.weighted(ORGS);
      const group = rng.pick(ASSET_GROUPS);
      const equipment = rng.pick(EQUIPMENT);
      const assetDescription =
        parent.type === "asset"
          ? `${equipment} ${rng.int(1, 6)}`
          : parent.type === "pm"
            ? `${rng.pick(PM_INTERVALS)} PM Kit - ${equipment}`
            : `${rng.pick(TOOLING)} ${rng.letters(1)}${rng.int(10, 99)}`;
      const serial = parent.type === "asset" ? `SN${rng.letters(2)}${rng.digits(7)}` : null;
      const seen = new Set<string>();
      const size = rng.int(parent.components[0], parent.components[1]);
      for (let line = 1; line <= size; line++) {
        const key = component(rng, parent.type);
        if (!key || seen.has(key.itemNumber)) continue;
        seen.add(key.itemNumber);
        const bulk = key.category === "Fasteners" || key.category === "Hoses" || key.category === "Wire Harnesses";
        yield {
          id: `${assetNumber}-${pad(line, 3)}`,
          type: parent.type,
          org_code: org,
          item_number: key.itemNumber,
          asset_number: assetNumber,
          asset_serial_number: serial,
          asset_group: parent.type === "other" && rng.chance(0.3) ? null : group,
          asset_description: assetDescription,
          quantity: parent.type === "other" && rng.chance(0.2) ? null : bulk ? rng.pick([2, 4, 6.5, 12, 25, 50]) : rng.int(1, 4),
        };
      }
    }
  }
}
