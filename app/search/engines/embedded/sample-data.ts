import type { BomDoc, BomType, Doc } from "../../engine";

/**
 * Deterministic sample catalogue: appliance parts of six plants, with stock, suppliers, prices and
 * bills of materials. Same seed and count give the same documents, so demos, tests and benchmarks
 * can name items that exist.
 *
 * Every item is generated from its own PRNG stream (seeded by the catalogue seed and its index), so
 * `sampleItem(i)` is random access and `generateItems` streams a million items in constant memory.
 * Item numbers are unique by construction: each item belongs to one of six part-number families,
 * and within a family its serial is an affine bijection of its rank, formatted into the family's
 * pattern (`WR55X10942`, `DA97-07365A`, `W10295370`, `5304506469`, `EBR78940601`, `MRO-0104233`).
 * The patterns cannot overlap, so numbers are unique across families too.
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

// ---------------------------------------------------------------------------------------------
// Randomness

/** mulberry32: tiny, fast, good enough for sample data, and identical on every platform. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mixes numbers into one 32-bit seed (murmur3 finaliser), so neighbouring indexes get unrelated streams. */
function mix(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const value of values) {
    h = Math.imul(h ^ (value >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(values: readonly T[]): T {
    const value = values[Math.floor(this.next() * values.length)];
    if (value === undefined) throw new Error("pick from an empty list");
    return value;
  }
  /** Picks by weight from `[value, weight]` pairs. */
  weighted<T>(pairs: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of pairs) total += w;
    let r = this.next() * total;
    for (const [value, w] of pairs) {
      r -= w;
      if (r < 0) return value;
    }
    return pairs[pairs.length - 1]![0];
  }
  digits(n: number): string {
    let s = "";
    for (let i = 0; i < n; i++) s += String(Math.floor(this.next() * 10));
    return s;
  }
  letters(n: number, alphabet = "ABCDEFGHJKLMNPRSTUVWXYZ"): string {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }
  /** Log-uniform: as many values between 1 and 10 as between 100 and 1000. */
  logUniform(min: number, max: number): number {
    return Math.exp(Math.log(min) + this.next() * (Math.log(max) - Math.log(min)));
  }
}

// ---------------------------------------------------------------------------------------------
// Vocabulary

const ORGS = [
  ["LOU", 35],
  ["SEL", 14],
  ["DEC", 14],
  ["LAF", 12],
  ["BLM", 11],
  ["MON", 14],
] as const;

const APPLIANCES = [
  "Refrigerator",
  "Dishwasher",
  "Washer",
  "Dryer",
  "Range",
  "Wall Oven",
  "Microwave",
  "Room Air Conditioner",
] as const;
type Appliance = (typeof APPLIANCES)[number];

interface Category {
  name: string;
  nouns: readonly string[];
  qualifiers: readonly string[];
  /** Optional trailing specification (voltage, size…). */
  specs: readonly string[];
  appliances: readonly Appliance[];
  manufacturers: readonly string[];
  cost: readonly [number, number];
  uoms: readonly string[];
  /** Replaced at preventive maintenance, so it appears in PM kits. */
  wear?: boolean;
  /** Plant maintenance (MRO) stock rather than appliance service parts. */
  mro?: boolean;
}

const ALL: readonly Appliance[] = APPLIANCES;
const COOLING: readonly Appliance[] = ["Refrigerator", "Room Air Conditioner"];
const LAUNDRY: readonly Appliance[] = ["Washer", "Dryer"];
const WET: readonly Appliance[] = ["Dishwasher", "Washer", "Refrigerator"];

const CATEGORIES: readonly Category[] = [
  {
    name: "Compressors",
    nouns: ["Compressor", "Compressor Assembly", "Inverter Compressor"],
    qualifiers: ["Reciprocating", "Variable Speed", "Linear", "Rotary", "R600a", "R134a"],
    specs: ["115V", "1/4 HP", "1/3 HP", "220V", "9000 BTU"],
    appliances: COOLING,
    manufacturers: ["Embraco", "Tecumseh", "Danfoss", "Secop", "Copeland", "Sanden", "LG Electronics", "Panasonic"],
    cost: [85, 420],
    uoms: ["EA"],
  },
  {
    name: "Valves",
    nouns: ["Valve", "Solenoid Valve", "Water Inlet Valve", "Gas Valve", "Check Valve", "Diverter Valve"],
    qualifiers: ["Dual", "Single", "Brass", "Drain", "Ice Maker", "Safety", "Pressure Relief"],
    specs: ["120V", "1/4 in", "3/8 in", "24VAC"],
    appliances: ["Refrigerator", "Dishwasher", "Washer", "Range", "Wall Oven"],
    manufacturers: ["Robertshaw", "Invensys", "Emerson", "Elbi", "Parker Hannifin", "Eaton"],
    cost: [6, 95],
    uoms: ["EA"],
    mro: true,
  },
  {
    name: "Motors",
    nouns: ["Motor", "Drive Motor", "Evaporator Fan Motor", "Condenser Fan Motor", "Timer Motor", "Auger Motor"],
    qualifiers: ["Brushless DC", "Shaded Pole", "Direct Drive", "Reversible", "Variable Speed", "Gear"],
    specs: ["120V", "12VDC", "1550 RPM", "3000 RPM", "1/2 HP"],
    appliances: ALL,
    manufacturers: ["Nidec", "Johnson Electric", "Wellington", "Regal Rexnord", "Hanning", "Askoll", "Emerson", "Mabuchi"],
    cost: [12, 180],
    uoms: ["EA"],
    mro: true,
  },
  {
    name: "Thermostats",
    nouns: ["Thermostat", "Cold Control", "Defrost Thermostat", "Bimetal Thermostat", "Limit Thermostat"],
    qualifiers: ["Adjustable", "High Limit", "Cycling", "Safety", "Fixed"],
    specs: ["L140", "L250", "40F", "120V"],
    appliances: ["Refrigerator", "Dryer", "Range", "Wall Oven", "Dishwasher"],
    manufacturers: ["Robertshaw", "Ranco", "Therm-O-Disc", "Sensata", "Elmwood", "Invensys"],
    cost: [3, 45],
    uoms: ["EA"],
  },
  {
    name: "Door Gaskets",
    nouns: ["Door Gasket", "Gasket", "Door Seal", "Magnetic Gasket"],
    qualifiers: ["Fresh Food", "Freezer", "Oven Door", "Tub", "Lower", "Upper", "Boot"],
    specs: ["White", "Gray", "Black", "24 in", "30 in"],
    appliances: ["Refrigerator", "Dishwasher", "Washer", "Wall Oven", "Range"],
    manufacturers: ["Saint-Gobain", "Freudenberg", "Trelleborg", "GE Appliances", "Whirlpool", "Haier"],
    cost: [8, 75],
    uoms: ["EA"],
    wear: true,
  },
  {
    name: "Control Boards",
    nouns: ["Control Board", "Main Control Board", "User Interface Board", "Power Board", "Inverter Board"],
    qualifiers: ["Electronic", "Touch", "Dispenser", "Machine", "Temperature"],
    specs: ["Rev A", "Rev C", "120V", "Wi-Fi"],
    appliances: ALL,
    manufacturers: ["GE Appliances", "Whirlpool", "Haier", "Mabe", "Bosch", "Samsung", "LG Electronics", "Electrolux"],
    cost: [35, 320],
    uoms: ["EA"],
  },
  {
    name: "Igniters",
    nouns: ["Igniter", "Spark Igniter", "Hot Surface Igniter", "Spark Electrode", "Spark Module"],
    qualifiers: ["Bake", "Broil", "Surface Burner", "Silicon Carbide", "Silicon Nitride"],
    specs: ["120V", "3.2 A", "Flat", "Round"],
    appliances: ["Range", "Wall Oven", "Dryer"],
    manufacturers: ["Robertshaw", "Norton", "Saint-Gobain", "Harper-Wyman", "Whirlpool", "GE Appliances"],
    cost: [9, 65],
    uoms: ["EA"],
  },
  {
    name: "Heating Elements",
    nouns: ["Heating Element", "Bake Element", "Broil Element", "Defrost Heater", "Surface Element"],
    qualifiers: ["Radiant", "Coil", "Calrod", "Hidden Bake", "Drain"],
    specs: ["2500W", "3400W", "240V", "120V", "8 in", "6 in"],
    appliances: ["Range", "Wall Oven", "Dryer", "Refrigerator", "Dishwasher"],
    manufacturers: ["Watlow", "Chromalox", "E.G.O.", "GE Appliances", "Whirlpool", "Mabe"],
    cost: [11, 90],
    uoms: ["EA"],
  },
  {
    name: "Pumps",
    nouns: ["Drain Pump", "Circulation Pump", "Pump Assembly", "Recirculation Pump", "Condensate Pump"],
    qualifiers: ["Drain", "Wash", "Water", "Low Profile", "Heated"],
    specs: ["120V", "60Hz", "230V", "30W"],
    appliances: WET,
    manufacturers: ["Askoll", "Hanning", "Plaset", "Grundfos", "Nidec", "Bosch", "Mabe"],
    cost: [18, 140],
    uoms: ["EA"],
  },
  {
    name: "Hoses",
    nouns: ["Hose", "Drain Hose", "Fill Hose", "Water Supply Line", "Tubing"],
    qualifiers: ["Braided", "Corrugated", "Rubber", "Polyethylene", "Hydraulic"],
    specs: ["1/4 in", "3/8 in", "5/8 in", "6 ft", "10 ft"],
    appliances: WET,
    manufacturers: ["Gates", "Parker Hannifin", "Eaton", "Continental", "Whirlpool"],
    cost: [2, 45],
    uoms: ["EA", "FT"],
    wear: true,
    mro: true,
  },
  {
    name: "Filters",
    nouns: ["Filter", "Water Filter", "Air Filter", "Lint Filter", "Grease Filter", "Hydraulic Filter"],
    qualifiers: ["Charcoal", "Pleated", "Mesh", "Carbon Block", "HEPA", "Return"],
    specs: ["20x25x1", "Replacement", "6 month", "Cartridge"],
    appliances: ALL,
    manufacturers: ["3M", "Donaldson", "Parker Hannifin", "GE Appliances", "Whirlpool", "Camfil"],
    cost: [3, 60],
    uoms: ["EA", "BX", "PK"],
    wear: true,
    mro: true,
  },
  {
    name: "Fans",
    nouns: ["Fan Blade", "Fan Assembly", "Blower Wheel", "Blower Housing", "Cooling Fan"],
    qualifiers: ["Evaporator", "Condenser", "Convection", "Exhaust", "Axial"],
    specs: ["5 in", "7 in", "12VDC", "120V"],
    appliances: ALL,
    manufacturers: ["ebm-papst", "Nidec", "Delta Electronics", "Wellington", "Johnson Electric"],
    cost: [4, 85],
    uoms: ["EA"],
    mro: true,
  },
  {
    name: "Switches",
    nouns: ["Switch", "Door Switch", "Lid Switch", "Pressure Switch", "Rotary Switch", "Limit Switch"],
    qualifiers: ["Momentary", "Micro", "Water Level", "Selector", "Interlock", "Safety"],
    specs: ["SPDT", "DPST", "16A", "120V"],
    appliances: ALL,
    manufacturers: ["Honeywell", "Eaton", "Schneider Electric", "Omron", "Cherry", "TE Connectivity", "Elbi"],
    cost: [2, 40],
    uoms: ["EA"],
    mro: true,
  },
  {
    name: "Sensors",
    nouns: ["Sensor", "Thermistor Sensor", "Temperature Sensor", "Humidity Sensor", "Water Level Sensor", "Flow Meter"],
    qualifiers: ["Fresh Food", "Freezer", "Oven", "Turbidity", "Ambient", "Evaporator"],
    specs: ["10K", "NTC", "5VDC", "Harness"],
    appliances: ALL,
    manufacturers: ["Sensata", "Honeywell", "TE Connectivity", "Shibaura", "Robertshaw", "Elmwood"],
    cost: [3, 70],
    uoms: ["EA"],
  },
  {
    name: "Wire Harnesses",
    nouns: ["Wire Harness", "Power Cord", "Jumper Harness", "Main Harness", "Terminal Block"],
    qualifiers: ["Door", "Cabinet", "Control", "Dispenser", "Lower"],
    specs: ["6 ft", "14 AWG", "18 AWG", "3-wire", "4-wire"],
    appliances: ALL,
    manufacturers: ["Molex", "TE Connectivity", "Yazaki", "Aptiv", "Amphenol"],
    cost: [4, 65],
    uoms: ["EA", "FT"],
  },
  {
    name: "Fasteners",
    nouns: ["Screw", "Hex Bolt", "Nut", "Washer", "Rivet", "Clip", "Anchor"],
    qualifiers: ["Stainless", "Zinc Plated", "Self-Tapping", "Lock", "Flange", "Hex Head"],
    specs: ["#8 x 1/2 in", "M6 x 20", "1/4-20", "M8", "#10"],
    appliances: ALL,
    manufacturers: ["Fastenal", "Illinois Tool Works", "Stanley Engineered Fastening", "Penn Engineering", "Grainger"],
    cost: [0.05, 6],
    uoms: ["EA", "BX", "PK", "LB"],
    mro: true,
  },
  {
    name: "Bearings",
    nouns: ["Bearing", "Ball Bearing", "Roller Bearing", "Pillow Block Bearing", "Drum Bearing", "Bushing"],
    qualifiers: ["Sealed", "Shielded", "Tapered", "Flanged", "Rear", "Tub"],
    specs: ["6203-2RS", "6205", "1 in bore", "25 mm"],
    appliances: ["Washer", "Dryer", "Dishwasher"],
    manufacturers: ["SKF", "Timken", "NSK", "NTN", "Schaeffler", "Regal Rexnord"],
    cost: [3, 120],
    uoms: ["EA"],
    wear: true,
    mro: true,
  },
  {
    name: "Belts",
    nouns: ["Belt", "Drive Belt", "V-Belt", "Timing Belt", "Conveyor Belt"],
    qualifiers: ["Poly-V", "Cogged", "Serpentine", "Flat", "Drum"],
    specs: ["A42", "B55", "8PJ", "92 in"],
    appliances: LAUNDRY,
    manufacturers: ["Gates", "Continental", "Optibelt", "Dayco", "Bando"],
    cost: [4, 95],
    uoms: ["EA"],
    wear: true,
    mro: true,
  },
  {
    name: "Racks",
    nouns: ["Dishrack", "Oven Rack", "Rack Assembly", "Silverware Basket", "Roller Rack"],
    qualifiers: ["Upper", "Lower", "Third Level", "Gliding", "Adjustable"],
    specs: ["Nylon Coated", "Chrome", "Stainless"],
    appliances: ["Dishwasher", "Wall Oven", "Range"],
    manufacturers: ["GE Appliances", "Whirlpool", "Mabe", "Bosch", "Electrolux"],
    cost: [9, 110],
    uoms: ["EA"],
  },
  {
    name: "Shelves",
    nouns: ["Shelf", "Glass Shelf", "Wire Shelf", "Door Shelf", "Crisper Drawer", "Door Bin"],
    qualifiers: ["Spillproof", "Slide-Out", "Fresh Food", "Freezer", "Deli"],
    specs: ["Tempered", "Clear", "24 in", "30 in"],
    appliances: ["Refrigerator"],
    manufacturers: ["GE Appliances", "Whirlpool", "Haier", "Mabe", "Samsung"],
    cost: [7, 85],
    uoms: ["EA"],
  },
  {
    name: "Knobs",
    nouns: ["Knob", "Control Knob", "Timer Knob", "Burner Knob", "Dial"],
    qualifiers: ["Surface", "Selector", "Temperature", "Stainless", "Black"],
    specs: ["D-Shaft", "Chrome", "White"],
    appliances: ["Range", "Wall Oven", "Washer", "Dryer"],
    manufacturers: ["GE Appliances", "Whirlpool", "Mabe", "Electrolux", "Bosch"],
    cost: [2, 25],
    uoms: ["EA", "PK"],
  },
  {
    name: "Hinges",
    nouns: ["Hinge", "Door Hinge", "Hinge Assembly", "Hinge Pin", "Hinge Cover"],
    qualifiers: ["Upper", "Lower", "Center", "Left", "Right", "Soft Close"],
    specs: ["Stainless", "Black", "Kit"],
    appliances: ["Refrigerator", "Dishwasher", "Wall Oven", "Range"],
    manufacturers: ["GE Appliances", "Whirlpool", "Haier", "Mabe", "Southco"],
    cost: [3, 55],
    uoms: ["EA"],
  },
  {
    name: "Seals",
    nouns: ["Seal", "O-Ring", "Shaft Seal", "Tub Seal", "Lip Seal", "Seal Kit"],
    qualifiers: ["Nitrile", "Viton", "Silicone", "Pump", "Drum", "Hydraulic"],
    specs: ["25 mm", "1-1/4 in", "Kit", "Metric"],
    appliances: WET,
    manufacturers: ["Freudenberg", "Trelleborg", "Parker Hannifin", "SKF", "Saint-Gobain"],
    cost: [0.5, 40],
    uoms: ["EA", "PK"],
    wear: true,
    mro: true,
  },
  {
    name: "Lamps",
    nouns: ["Lamp", "LED Light", "Light Bulb", "Lamp Socket", "Light Module"],
    qualifiers: ["Appliance", "Oven", "Refrigerator", "High Bay", "Halogen", "Indicator"],
    specs: ["40W", "25W", "120V", "LED", "E26"],
    appliances: ["Refrigerator", "Wall Oven", "Range", "Microwave"],
    manufacturers: ["Philips", "Osram", "GE Lighting", "Eiko", "Sylvania"],
    cost: [1.5, 60],
    uoms: ["EA", "BX"],
    wear: true,
    mro: true,
  },
  {
    name: "Dampers",
    nouns: ["Damper", "Damper Control", "Air Damper", "Damper Assembly", "Vent Damper"],
    qualifiers: ["Motorized", "Freezer", "Fresh Food", "Exhaust", "Barometric"],
    specs: ["12VDC", "120V", "4 in"],
    appliances: ["Refrigerator", "Dryer", "Room Air Conditioner"],
    manufacturers: ["Robertshaw", "Invensys", "Sankyo", "Nidec", "GE Appliances"],
    cost: [9, 75],
    uoms: ["EA"],
  },
];

const APPLIANCE_CATEGORY_WEIGHTS = CATEGORIES.map((c) => [c, 4] as const);
const MRO_CATEGORY_WEIGHTS = CATEGORIES.filter((c) => c.mro).map((c) => [c, c.name === "Fasteners" ? 8 : 3] as const);

/** Every manufacturer named by a category; items sometimes come from outside their category's usual makers. */
const MANUFACTURERS = [...new Set(CATEGORIES.flatMap((c) => c.manufacturers))].sort();

const DISTRIBUTORS = [
  "W.W. Grainger",
  "Fastenal",
  "MSC Industrial Supply",
  "Motion Industries",
  "Applied Industrial Technologies",
  "Allied Electronics",
  "Digi-Key Electronics",
  "Mouser Electronics",
  "Border States",
  "Graybar Electric",
  "McMaster-Carr",
  "Kaman Distribution",
  "Marcone Supply",
  "Encompass Supply Chain",
  "Reliable Parts",
];

const SITES = ["LOUISVILLE", "CHICAGO", "ATLANTA", "MEMPHIS", "INDIANAPOLIS", "MONTERREY", "NASHVILLE", "DALLAS"];

const STATUSES = [
  ["Active", 78],
  ["Inactive", 7],
  ["Obsolete - Inactive", 5],
  ["Pending", 4],
  ["Engineering Hold", 3],
  ["Phase Out", 3],
] as const;

const ITEM_TYPES = [
  ["Purchased Part", 45],
  ["Spare Part", 20],
  ["Assembly", 12],
  ["Consumable", 12],
  ["Kit", 6],
  ["Tooling", 5],
] as const;

const SUBINVENTORIES = [
  ["STORES", 35],
  ["MRO", 20],
  ["LINE1", 10],
  ["LINE2", 8],
  ["SPARES", 12],
  ["TOOLCRIB", 6],
  ["RECV", 5],
  ["QUAR", 4],
] as const;

const PLANNING = [
  ["Min-Max", 60],
  ["Reorder Point", 20],
  ["Not Planned", 20],
] as const;

const MIN_MAX_CATEGORIES = ["Critical Spare", "Standard", "Slow Moving", "Consumable", "Insurance Spare"];

const USERS = ["JSMITH", "MGARCIA", "TNGUYEN", "AKOWALSKI", "RPATEL", "LHERNANDEZ", "DWILLIAMS", "ORACLE_INTERFACE", "SYSADMIN"];

const GE_APPLIANCE_LETTER: Record<Appliance, string> = {
  Refrigerator: "R",
  Dishwasher: "D",
  Washer: "H",
  Dryer: "E",
  Range: "B",
  "Wall Oven": "B",
  Microwave: "B",
  "Room Air Conditioner": "J",
};
const SAMSUNG_PREFIX: Record<Appliance, string> = {
  Refrigerator: "DA",
  Dishwasher: "DD",
  Washer: "DC",
  Dryer: "DC",
  Range: "DG",
  "Wall Oven": "DG",
  Microwave: "DE",
  "Room Air Conditioner": "DB",
};
const LG_PREFIXES = ["ADQ", "EBR", "MDS", "AJU", "ABQ", "MCK", "EAU", "AEB"];
const FRIGIDAIRE_PREFIXES = ["5304", "2426", "3160", "1370", "5303", "2421"];

// ---------------------------------------------------------------------------------------------
// Item numbers

interface Family {
  /** Serials available; ranks map onto 0..capacity-1 one to one. */
  capacity: number;
  /** Appliance parts or plant-maintenance stock. */
  mro: boolean;
  format(serial: number, appliance: Appliance, rng: Rng): string;
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

const FAMILIES: readonly Family[] = [
  {
    // GE: W + appliance letter + 2 digits + X/T/M + 5 digits (WR55X10942)
    capacity: 100 * 3 * 100_000,
    mro: false,
    format: (s, appliance) =>
      `W${GE_APPLIANCE_LETTER[appliance]}${pad(s % 100, 2)}${"XTM"[Math.floor(s / 100) % 3]}${pad(Math.floor(s / 300), 5)}`,
  },
  {
    // Samsung: DA97-07365A
    capacity: 100 * 100_000 * 4,
    mro: false,
    format: (s, appliance) =>
      `${SAMSUNG_PREFIX[appliance]}${pad(s % 100, 2)}-${pad(Math.floor(s / 400) % 100_000, 5)}${"ABCD"[Math.floor(s / 100) % 4]}`,
  },
  {
    // Whirlpool: W10295370
    capacity: 20_000_000,
    mro: false,
    format: (s) => `W${10_000_000 + s}`,
  },
  {
    // Frigidaire: 5304506469
    capacity: 1_000_000,
    mro: false,
    format: (s, _appliance, rng) => `${rng.pick(FRIGIDAIRE_PREFIXES)}${pad(s, 6)}`,
  },
  {
    // LG: EBR78940601
    capacity: 100_000_000,
    mro: false,
    format: (s, _appliance, rng) => `${rng.pick(LG_PREFIXES)}${pad(s, 8)}`,
  },
  {
    // Plant maintenance stock: MRO-0104233
    capacity: 10_000_000,
    mro: true,
    format: (s) => `MRO-${pad(s, 7)}`,
  },
];

/** Family of each slot in a block of 20 items; shuffled per block so families interleave. */
const FAMILY_SLOTS = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5];
const BLOCK = FAMILY_SLOTS.length;
const FAMILY_WEIGHT = FAMILIES.map((_, f) => FAMILY_SLOTS.filter((s) => s === f).length);
/**
 * A keyed bijection of 0..n-1 that scatters neighbours: a 4-round Feistel network over the next
 * even power of two, walking the cycle until the value falls back inside the range. Consecutive
 * ranks then get unrelated serials (`WR55X10942`, `WD12X80304`) instead of counting up.
 */
function scramble(value: number, n: number, key: number): number {
  let bits = Math.max(2, Math.ceil(Math.log2(n)));
  if (bits % 2 === 1) bits++;
  const half = bits / 2;
  const mask = (1 << half) - 1;
  let x = value;
  do {
    let left = x >>> half;
    let right = x & mask;
    for (let round = 0; round < 4; round++) {
      const next = left ^ (mix(key, round, right) & mask);
      left = right;
      right = next;
    }
    x = left * (1 << half) + right;
  } while (x >= n);
  return x;
}

function blockFamilies(block: number, seed: number): number[] {
  const slots = [...FAMILY_SLOTS];
  const rng = new Rng(mix(seed, block, 0xb10c));
  for (let i = slots.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [slots[i], slots[j]] = [slots[j]!, slots[i]!];
  }
  return slots;
}

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
  const block = Math.floor(index / BLOCK);
  const slot = index % BLOCK;
  const slots = families ?? blockFamilies(block, seed);
  const family = slots[slot]!;
  let rank = 0;
  for (let s = 0; s < slot; s++) if (slots[s] === family) rank++;
  const def = FAMILIES[family]!;
  const k = block * FAMILY_WEIGHT[family]! + rank;
  const serial = scramble(k, def.capacity, mix(seed, family));

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
  let subMin: number | null = null;
  let subMax: number | null = null;
  let orgMin: number | null = null;
  let orgMax: number | null = null;
  if (planning !== "Not Planned") {
    subMin = rng.int(0, 40);
    subMax = subMin + rng.int(2, 200);
    orgMin = subMin * rng.int(1, 3);
    orgMax = Math.max(orgMin + 1, subMax * rng.int(1, 3));
  }
  const onHand = inactive && rng.chance(0.6) ? 0 : rng.chance(0.15) ? 0 : Math.floor(rng.logUniform(1, 5000));
  const onOrder = inactive || rng.chance(0.6) ? 0 : Math.floor(rng.logUniform(1, 2000));

  const created = CREATED_FROM + rng.float() * (CREATED_TO - CREATED_FROM);
  const modified = created + rng.float() * (MODIFIED_TO - created);
  const image = rng.chance(0.05);

  const notes: (() => string)[] = [
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

const ASSET_GROUPS = [
  "Refrigeration Line 1",
  "Refrigeration Line 2",
  "Dishwasher Assembly Line",
  "Laundry Line 3",
  "Range Final Assembly",
  "Foam Line",
  "Paint Shop",
  "Press Shop",
  "Compressor Test Cell",
  "Thermoforming",
  "Plant Utilities",
  "Warehouse",
];

const EQUIPMENT = [
  "Conveyor Drive Unit",
  "Hydraulic Press 400T",
  "Foam Injection Machine",
  "Helium Leak Tester",
  "Robotic Weld Cell",
  "Air Compressor 75HP",
  "Process Chiller",
  "Vacuum Former",
  "Powder Coat Booth",
  "Run Test Station",
  "Screw Feeder",
  "Palletizer",
  "Shrink Wrap Tunnel",
  "Refrigerant Charging Unit",
  "Sheet Metal Shear",
];

const PM_INTERVALS = ["Monthly", "Quarterly", "Semi-Annual", "Annual"];
const TOOLING = ["Assembly Fixture", "Gauge Set", "Test Harness Jig", "Door Alignment Tool", "Weld Nest"];

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
