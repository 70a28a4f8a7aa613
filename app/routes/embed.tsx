import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useOutletContext } from "@remix-run/react";
import { useWidgetsScript, widget } from "~/components/embed-widgets";
import type { RootContext } from "~/root";
import { loadEmbed } from "~/web/embed.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadEmbed(request, context);
}

export const meta: MetaFunction = () => [{ title: "Embeddable widgets – Crib Search" }];

/** The embeddable widgets demo: the search box, facets and results as another site would embed them. */
export default function EmbedRoute() {
  const data = useLoaderData<typeof loader>();
  const { nonce } = useOutletContext<RootContext>();
  useWidgetsScript(data.widgetsSrc);
  return (
    <section className="embed" aria-labelledby="embed-title">
      <h1 id="embed-title">Embeddable widgets</h1>
      <p role="status" className="embed-status">
        Status: <strong>{data.status}</strong>
      </p>
      <details className="embed-config">
        <summary>Configuration</summary>
        <dl>
          {data.config.map((row) => (
            <div key={row.label}>
              <dt>{row.label}</dt>
              <dd>{row.value}</dd>
            </div>
          ))}
        </dl>
        <p>
          Theme:{" "}
          {data.themeLinks.map((t) => (
            <span key={t.theme}>
              {t.current ? <strong aria-current="true">{t.theme}</strong> : <Link to={t.href}>{t.theme}</Link>}{" "}
            </span>
          ))}
        </p>
        <p className="muted">
          Embed on a page of an allowed origin: <code>{`<script src="${data.config[3]!.value}${data.widgetsSrc}" defer></script>`}</code> and the
          elements below with <code>endpoint=&quot;{data.config[3]!.value}&quot;</code>.
        </p>
      </details>
      <nav aria-label="View" className="embed-views">
        {data.viewLinks.map((v) => (
          <span key={v.view}>
            {v.current ? <strong aria-current="true">{v.view === "grid" ? "Grid" : "List"}</strong> : <Link to={v.href}>{v.view === "grid" ? "Grid" : "List"}</Link>}{" "}
          </span>
        ))}
      </nav>
      {widget(
        "crib-search-box",
        { theme: data.theme },
        <form action={data.searchAction} method="get" role="search">
          <label>
            Search <input type="search" name="q" defaultValue={data.q} />
          </label>
          <button type="submit">Search</button>
        </form>,
      )}
      <div className="embed-layout">
        <details className="embed-filters" open>
          <summary>Filters</summary>
          {widget(
            "crib-facets",
            { theme: data.theme },
            <form action={data.searchAction} method="get">
              <button type="submit">Filter on the results page</button>
            </form>,
          )}
        </details>
        {widget(
          "crib-results",
          { theme: data.theme, view: data.view },
          <form action={data.searchAction} method="get">
            <input type="hidden" name="q" value={data.q} />
            <button type="submit">Show results</button>
          </form>,
        )}
      </div>
      <script src={data.widgetsSrc} nonce={nonce} defer suppressHydrationWarning />
    </section>
  );
}
