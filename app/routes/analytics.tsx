import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AnalyticsTable, AnalyticsTotals, SearchesPerDay } from "~/components/analytics-parts";
import { loadAnalytics } from "~/web/analytics.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadAnalytics(request, context);
}

export const meta: MetaFunction = () => [{ title: "Search analytics – Crib Search" }];

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
            <li key={p.days}>{p.current ? <strong aria-current="page">Last {p.days} days</strong> : <Link to={p.href}>Last {p.days} days</Link>}</li>
          ))}
        </ul>
      </nav>
      <p className="muted">
        {data.from} to {data.to} (UTC)
        {data.enabled ? "" : ". Usage signals are turned off: nothing new is counted."}
      </p>
      <AnalyticsTotals totals={totals} />
      <SearchesPerDay perDay={data.perDay} />
      {data.tables.map((table) => (
        <section key={table.name} aria-labelledby={`table-${table.name}`}>
          <h2 id={`table-${table.name}`}>{table.title}</h2>
          <p>
            <a href={table.csvHref} download>
              Export {table.title.toLowerCase()} as CSV
            </a>
          </p>
          <AnalyticsTable table={table} />
        </section>
      ))}
    </section>
  );
}
