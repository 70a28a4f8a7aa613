import { generateBoms } from "./app/search/engines/embedded/sample-data";
for (const n of [300, 3000, 5000, 100000]) {
  let c = 0; const uses = new Map<string, number>();
  for (const b of generateBoms(n)) { c++; uses.set(b.item_number, (uses.get(b.item_number) ?? 0) + 1); }
  console.log(n, (c / n).toFixed(2), "≥30:", [...uses.values()].filter((u) => u >= 30).length, "unused:", ((n - uses.size) / n).toFixed(2));
}
