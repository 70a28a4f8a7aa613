import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { loadAnalytics } from "~/web/analytics.server";

export function loader({ request }: LoaderFunctionArgs) {
  return loadAnalytics(request);
}

export const meta: MetaFunction = () => [{ title: "Search analytics – Crib Search" }];

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

/** Searches per day as bars in inline SVG: no chart library, readable without JavaScript. */
function SearchesPerDay({ perDay }: { perDay: Data["perDay"] }) {
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

/** Search analytics for catalogue owners: what is searched, found, opened and exported. */
export default function AnalyticsRoute() {
  const data = useLoaderData<typeof loader>();
  const { totals } = data;
  return (
    <section className="analytics" aria-labelledby="analytics-title">
      <h1 id="analytics-title">Search analytics</h1>
      <nav aria-label="Period">
        <ul className="analytics-periods">
          {data.periods.map((p) => (
            <li key={p.days}>
              {p.current ? (
                <strong aria-current="page">Last {p.days} days</strong>
              ) : (
                <Link to={p.href}>Last {p.days} days</Link>
              )}
            </li>
          ))}
        </ul>
      </nav>
      <p className="muted">
        {data.from} to {data.to} (UTC){data.enabled ? "" : ". Usage signals are turned off: nothing new is counted."}
      </p>
      <dl className="analytics-totals">
        <div>
          <dt>Searches</dt>
          <dd data-testid="total-searches">{totals.searches}</dd>
        </div>
        <div>
          <dt>With zero results</dt>
          <dd>{totals.zeroResults}</dd>
        </div>
        <div>
          <dt>Result clicks</dt>
          <dd>{totals.clicks}</dd>
        </div>
        <div>
          <dt>Click-through rate</dt>
          <dd>{totals.ctr}</dd>
        </div>
        <div>
          <dt>Mean clicked position</dt>
          <dd>{totals.meanPosition}</dd>
        </div>
        <div>
          <dt>Item views</dt>
          <dd>{totals.views}</dd>
        </div>
        <div>
          <dt>Item exports</dt>
          <dd>{totals.exports}</dd>
        </div>
        {totals.dropped > 0 && (
          <div>
            <dt>Dropped (over a session&apos;s limit)</dt>
            <dd>{totals.dropped}</dd>
          </div>
        )}
      </dl>
      <SearchesPerDay perDay={data.perDay} />
      {data.tables.map((table) => (
        <section key={table.name} aria-labelledby={`table-${table.name}`}>
          <h2 id={`table-${table.name}`}>{table.title}</h2>
          <p>
            <a href={table.csvHref} download>
              Export {table.title.toLowerCase()} as CSV
            </a>
          </p>
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
        </section>
      ))}
    </section>
  );
}
