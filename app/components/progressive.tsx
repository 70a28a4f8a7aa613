/**
 * Progressive enhancement: what turns the server's plain HTML into an app once JavaScript runs,
 * and changes nothing without it. One module, so that every page gets it in one script.
 *
 * Links and GET forms as plain HTML, enhanced by one listener for the whole document. Remix's
 * <Link> and <Form> resolve their target against the route tree in every render; a search page has
 * well over a hundred of them (facet values, rows, pages), and resolving them was a large share of
 * the server's time per page. These render the same markup with no hooks: without JavaScript they
 * are ordinary links and forms, and with it `useDocumentNavigation` (mounted once in the root)
 * turns their clicks and submissions into client-side navigations, as <Link> and <Form> would.
 * Targets are absolute paths, so there is nothing to resolve, and every route is in the manifest
 * the client loads at start (remix.config.js leaves lazy route discovery off).
 *
 * Then what differs between the server's HTML and the page once its JavaScript runs: whether it
 * has hydrated yet (`useHydrated`), and parts of a page whose code comes only when they are shown
 * (`lazyPart`).
 */
import { useNavigate, useSubmit } from "@remix-run/react";
import { lazy, memo, Suspense, useContext, useEffect, useState, type AnchorHTMLAttributes, type ComponentType, type FormHTMLAttributes, type ReactNode } from "react";
import { PreferencesContext } from "./preferences";

interface AppLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> {
  to: string;
  /** Keep the scroll position (a change within the page, like sorting a section). */
  preventScrollReset?: boolean;
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
}

export function AppLink({ to, preventScrollReset, replace, ...rest }: AppLinkProps) {
  return (
    <a
      {...rest}
      href={to}
      data-nav=""
      data-keep-scroll={preventScrollReset ? "" : undefined}
      data-replace={replace ? "" : undefined}
    />
  );
}

interface AppFormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, "method" | "action"> {
  action: string;
  preventScrollReset?: boolean;
}

/** A GET form: the search forms only ever read, so their submissions are bookmarkable URLs. */
export function AppForm({ action, preventScrollReset, ...rest }: AppFormProps) {
  return <form {...rest} method="get" action={action} data-nav="" data-keep-scroll={preventScrollReset ? "" : undefined} />;
}

function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
}

/**
 * Client-side navigation for every AppLink and AppForm. Listens on the document after React's own
 * listeners, so a component's handler that calls preventDefault keeps the last word.
 */
export function useDocumentNavigation(): void {
  const navigate = useNavigate();
  const submit = useSubmit();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || !isPlainClick(event) || !(event.target instanceof Element)) return;
      const link = event.target.closest<HTMLAnchorElement>("a[data-nav]");
      if (!link || link.hasAttribute("download") || (link.target !== "" && link.target !== "_self")) return;
      const url = new URL(link.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      navigate(url.pathname + url.search + url.hash, {
        preventScrollReset: link.hasAttribute("data-keep-scroll"),
        replace: link.hasAttribute("data-replace"),
      });
    };
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target;
      if (event.defaultPrevented || !(form instanceof HTMLFormElement) || !form.hasAttribute("data-nav")) return;
      event.preventDefault();
      // The pressed button goes with the form data, as in a plain submission.
      const submitter = event.submitter;
      const target = submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement ? submitter : form;
      submit(target, { preventScrollReset: form.hasAttribute("data-keep-scroll") });
    };
    document.addEventListener("click", onClick);
    document.addEventListener("submit", onSubmit);
    return () => {
      document.removeEventListener("click", onClick);
      document.removeEventListener("submit", onSubmit);
    };
  }, [navigate, submit]);
}

/** The current search as hidden fields, so a GET form changes one thing and keeps the rest. */
export function HiddenInputs({ params, omit = [] }: { params: [string, string][]; omit?: string[] }) {
  return (
    <>
      {params
        .filter(([name]) => !omit.includes(name))
        .map(([name, value], i) => (
          <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
        ))}
    </>
  );
}

// Hydration

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
