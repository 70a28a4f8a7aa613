/*
 * The words of the sample catalogue (sample-data.ts): plants, appliances, part categories with their
 * makers and price ranges, suppliers, statuses, and the equipment that bills of materials belong to.
 * Pure data; how often each is drawn is the generator's business, apart from the weights that come
 * with a list.
 */

export const ORGS = [
  ["LOU", 35],
  ["SEL", 14],
  ["DEC", 14],
  ["LAF", 12],
  ["BLM", 11],
  ["MON", 14],
] as const;

export const APPLIANCES = [
  "Refrigerator",
  "Dishwasher",
  "Washer",
  "Dryer",
  "Range",
  "Wall Oven",
  "Microwave",
  "Room Air Conditioner",
] as const;
export type Appliance = (typeof APPLIANCES)[number];

export interface Category {
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

export const CATEGORIES: readonly Category[] = [
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

/** Every manufacturer named by a category; items sometimes come from outside their category's usual makers. */
export const MANUFACTURERS = [...new Set(CATEGORIES.flatMap((c) => c.manufacturers))].sort();

export const DISTRIBUTORS = [
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

export const SITES = ["LOUISVILLE", "CHICAGO", "ATLANTA", "MEMPHIS", "INDIANAPOLIS", "MONTERREY", "NASHVILLE", "DALLAS"];

export const STATUSES = [
  ["Active", 78],
  ["Inactive", 7],
  ["Obsolete - Inactive", 5],
  ["Pending", 4],
  ["Engineering Hold", 3],
  ["Phase Out", 3],
] as const;

export const ITEM_TYPES = [
  ["Purchased Part", 45],
  ["Spare Part", 20],
  ["Assembly", 12],
  ["Consumable", 12],
  ["Kit", 6],
  ["Tooling", 5],
] as const;

export const SUBINVENTORIES = [
  ["STORES", 35],
  ["MRO", 20],
  ["LINE1", 10],
  ["LINE2", 8],
  ["SPARES", 12],
  ["TOOLCRIB", 6],
  ["RECV", 5],
  ["QUAR", 4],
] as const;

export const PLANNING = [
  ["Min-Max", 60],
  ["Reorder Point", 20],
  ["Not Planned", 20],
] as const;

export const MIN_MAX_CATEGORIES = ["Critical Spare", "Standard", "Slow Moving", "Consumable", "Insurance Spare"];

export const USERS = ["JSMITH", "MGARCIA", "TNGUYEN", "AKOWALSKI", "RPATEL", "LHERNANDEZ", "DWILLIAMS", "ORACLE_INTERFACE", "SYSADMIN"];

export const GE_APPLIANCE_LETTER: Record<Appliance, string> = {
  Refrigerator: "R",
  Dishwasher: "D",
  Washer: "H",
  Dryer: "E",
  Range: "B",
  "Wall Oven": "B",
  Microwave: "B",
  "Room Air Conditioner": "J",
};
export const SAMSUNG_PREFIX: Record<Appliance, string> = {
  Refrigerator: "DA",
  Dishwasher: "DD",
  Washer: "DC",
  Dryer: "DC",
  Range: "DG",
  "Wall Oven": "DG",
  Microwave: "DE",
  "Room Air Conditioner": "DB",
};
export const LG_PREFIXES = ["ADQ", "EBR", "MDS", "AJU", "ABQ", "MCK", "EAU", "AEB"];
export const FRIGIDAIRE_PREFIXES = ["5304", "2426", "3160", "1370", "5303", "2421"];

// Bills of materials

export const ASSET_GROUPS = [
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

export const EQUIPMENT = [
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

export const PM_INTERVALS = ["Monthly", "Quarterly", "Semi-Annual", "Annual"];
export const TOOLING = ["Assembly Fixture", "Gauge Set", "Test Harness Jig", "Door Alignment Tool", "Weld Nest"];
