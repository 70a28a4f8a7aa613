import { generateItems, generateBoms } from "./app/search/engines/embedded/sample-data";
const N = Number(process.argv[2] ?? 2000);
let t = Date.now();
const items = [...generateItems(N)];
console.log("items ms", Date.now() - t);
console.log(JSON.stringify(items.slice(0, 3), null, 1));
for (const it of items.slice(3, 40)) console.log(it.item_number_s, "|", it.item_description_t, "|", it.category_s, "|", it.manufacturer_s, "|", it.attribute_status_s);
t = Date.now();
const boms = [...generateBoms(N)];
console.log("boms ms", Date.now() - t, "records", boms.length, "per item", boms.length / N);
const uses = new Map<string, { asset: number; pm: number; other: number }>();
for (const b of boms) { const u = uses.get(b.item_number) ?? { asset: 0, pm: 0, other: 0 }; u[b.type]++; uses.set(b.item_number, u); }
const tot = [...uses.entries()].map(([k, u]) => [k, u.asset + u.pm + u.other, u] as const).sort((a, b) => b[1] - a[1]);
console.log("used items", uses.size, "top", tot.slice(0, 8).map((x) => `${x[0]}:${JSON.stringify(x[2])}`));
console.log(">=30:", tot.filter((x) => x[1] >= 30).length, "allAsset>=2:", tot.filter((x) => x[2].asset >= 2 && x[2].asset === x[1]).length, "allPm>=2:", tot.filter((x) => x[2].pm >= 2 && x[2].pm === x[1]).length, "mixed:", tot.filter(x => x[2].asset && x[2].pm).length);
