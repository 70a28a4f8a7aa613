import { AppLink } from "./nav";

export interface ExportMenuView {
  allHref: string;
  pageHref: string;
  shown: number;
  total: number;
}

/** A <details> dropdown: it opens and its entries work without JavaScript. */
export function ExportMenu({ menu }: { menu: ExportMenuView }) {
  return (
    <details className="menu export-menu">
      <summary className="button small secondary">Export</summary>
      <ul>
        <li>
          <AppLink to={menu.allHref} preventScrollReset>
            Export all results ({menu.total})
          </AppLink>
        </li>
        <li>
          <AppLink to={menu.pageHref} preventScrollReset>
            Export shown results ({menu.shown})
          </AppLink>
        </li>
      </ul>
    </details>
  );
}
