/** The parts of the analytics page: the totals, the chart of searches per day, one table. */

/** Searches per day as bars in inline SVG: no chart library, readable without JavaScript. */
export function SearchesPerDay({ perDay }: { perDay: { day: string; searches: number }[] }) {
  const width = 720;
  const height = 140;
  const max = Math.max(1, ...perDay.map((d) => d.searches));
  const step = width / perDay.length;
  const bar = Math.max(1, step * 0.8);
  const total = perDay.reduce((sum, d) => sum + d.searches, 0);
  return (
    <figure className="analytics-chart">
      <svg viewBox={`0 0 ${width} ${height + 20}`} width="100%" role="img" aria-labelledby="per-day-title">
        <title id="per-day-title">{`Searches per day, ${perDay[0]?.day} to ${perDay.at(-1)?.day}: ${total} in all, at most ${max} a day`}</title>
        <line x1="0" y1={height} x2={width} y2={height} stroke="currentColor" strokeOpacity="0.3" />
        {perDay.map((d, i) => {
          const h = (d.searches / max) * (height - 10);
          return (
            <rect key={d.day} x={i * step + (step - bar) / 2} y={height - h} width={bar} height={h} fill="currentColor" fillOpacity="0.6">
              <title>{`${d.day}: ${d.searches}`}</title>
            </rect>
          );
        })}
        <text x="0" y={height + 16} fontSize="12" fill="currentColor">
          {perDay[0]?.day}
        </text>
        <text x={width} y={height + 16} fontSize="12" fill="currentColor" textAnchor="end">
          {perDay.at(-1)?.day}
        </text>
      </svg>
      <figcaption className="muted small">Searches per day (most: {max})</figcaption>
    </figure>
  );
}

const TOTALS = [
  ["searches", "Searches"],
  ["zeroResults", "With zero results"],
  ["clicks", "Result clicks"],
  ["ctr", "Click-through rate"],
  ["meanPosition", "Mean clicked position"],
  ["views", "Item views"],
  ["exports", "Item exports"],
] as const;

type Totals = Record<(typeof TOTALS)[number][0], string | number> & {
  dropped: number;
  evicted: number;
};

export function AnalyticsTotals({ totals }: { totals: Totals }) {
  return (
    <dl className="analytics-totals">
      {TOTALS.map(([key, label]) => (
        <div key={key}>
          <dt>{label}</dt>
          <dd {...(key === "searches" ? { "data-testid": "total-searches" } : {})}>{totals[key]}</dd>
        </div>
      ))}
      {totals.dropped > 0 && (
        <div>
          <dt>Dropped (over a session&apos;s limit)</dt>
          <dd>{totals.dropped}</dd>
        </div>
      )}
      {totals.evicted > 0 && (
        <div>
          <dt>Removed, oldest first, to keep within the signals limit</dt>
          <dd data-testid="total-evicted">{totals.evicted}</dd>
        </div>
      )}
    </dl>
  );
}

export function AnalyticsTable({ table }: { table: { columns: Record<string, string>; rows: object[] } }) {
  return (
    <>
      {table.rows.length === 0 ? (
        <p className="muted">Nothing in this period</p>
      ) : (
        <div className="table-scroll">
          <table className="results-table">
            <thead>
              <tr>
                {Object.values(table.columns).map((label) => (
                  <th key={label} scope="col">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, i) => (
                <tr key={i}>
                  {Object.keys(table.columns).map((key) => (
                    <td key={key}>{(row as Record<string, string>)[key]}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
