import { AppLink } from "./nav";

export interface ExportMenuView {
  allHref: string;
  pageHref: string;
  shown: number;
  total: number;
}

/** A <details> dropdown: it opens and its entries work without JavaScript. `onOpen` may fetch what its entries lead to. */
export function ExportMenu({ menu, onOpen }: { menu: ExportMenuView; onOpen?: () => void }) {
  // An entry opens the dialog over the page (with JavaScript the page stays): the menu folds.
  const fold = (e: { currentTarget: Element }) => e.currentTarget.closest("details")?.removeAttribute("open");
  return (
    <details className="menu export-menu" onToggle={(e) => e.currentTarget.open && onOpen?.()}>
      <summary className="button small secondary">Export</summary>
      <ul>
        <li>
          <AppLink to={menu.allHref} preventScrollReset onClick={fold}>
            Export all results ({menu.total})
          </AppLink>
        </li>
        <li>
          <AppLink to={menu.pageHref} preventScrollReset onClick={fold}>
            Export shown results ({menu.shown})
          </AppLink>
        </li>
      </ul>
    </details>
  );
}
