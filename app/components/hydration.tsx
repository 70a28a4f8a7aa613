/**
 * What differs between the server's HTML and the page once its JavaScript runs: whether it has
 * hydrated yet (`useHydrated`), what only a browser without scripts needs (`WithoutScript`), and
 * parts of a page whose code comes only when they are shown (`lazyPart`).
 */
import { lazy, memo, Suspense, useContext, useEffect, useState, type ComponentType, type ReactNode } from "react";
import { PreferencesContext } from "./preferences";

/** False in the server render and the first client render, true once JavaScript runs. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * What only a browser that runs no script needs, such as the submit button of a form that
 * JavaScript submits on change. A page with scripts has it in `<noscript>`: where scripts run it is
 * never drawn, so hydration removes nothing and nothing on the page moves. A lite page (no scripts
 * sent, though the browser runs them) has it as plain markup, which `<noscript>` would hide there.
 * React leaves a `<noscript>`'s content alone when it hydrates.
 */
export function WithoutScript({ children }: { children: ReactNode }) {
  const { lite } = useContext(PreferencesContext);
  return lite ? <>{children}</> : <noscript>{children}</noscript>;
}

type Loaded<P> = { default: ComponentType<P> };

function Nothing() {
  return null;
}

/**
 * A part of a page whose code the browser fetches only when a page shows it (the export dialog,
 * the type-ahead), so it is not among the scripts every search page names. The server renders it
 * like any other component: its module is in the server build, loaded before the first request,
 * and handed to React.lazy as an already settled thenable, which React 18 renders at once, so the
 * HTML is whole without JavaScript. In the browser the page hydrates around the part's server
 * HTML until its code has come, then hydrates the part: nothing is drawn twice or lost.
 *
 * The part is memoised: a parent that re-renders with the same props before the code has come
 * leaves the waiting server HTML alone (React would otherwise give up hydrating it and draw the
 * empty fallback). `preload` starts the download early, e.g. when a menu that leads to it opens.
 * If the code cannot be fetched, React draws `unavailable` (by default nothing) in its place.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>, unavailable: ComponentType<P> = Nothing) {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  // Code that cannot be fetched (the network gone) gives way to `unavailable`, not the error screen.
  const preload = () => (loading ??= load().then((component) => (loaded = component), () => (loaded = unavailable)));
  const Lazy = lazy<ComponentType<P>>(() => {
    if (loaded) {
      const ready = { default: loaded };
      // Settles synchronously: React.lazy reads it as resolved in the same render.
      return { then: (resolve: (value: Loaded<P>) => void) => resolve(ready) } as unknown as Promise<Loaded<P>>;
    }
    return preload().then((component) => ({ default: component }));
  });
  // The server: ready before it renders a page (a bundled module's import settles in a microtask).
  if (typeof document === "undefined") void preload();
  const Part = memo(function Part(props: P) {
    return (
      <Suspense fallback={null}>
        {/* eslint-disable-next-line @typescript-eslint/no-explicit-any -- LazyExoticComponent's props type does not accept a generic P */}
        <Lazy {...(props as any)} />
      </Suspense>
    );
  });
  return { Part, preload };
}
