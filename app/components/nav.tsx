/**
 * Links and GET forms as plain HTML, enhanced by one listener for the whole document. Remix's
 * <Link> and <Form> resolve their target against the route tree in every render; a search page has
 * well over a hundred of them (facet values, rows, pages), and resolving them was a large share of
 * the server's time per page. These render the same markup with no hooks: without JavaScript they
 * are ordinary links and forms, and with it `useDocumentNavigation` (mounted once in the root)
 * turns their clicks and submissions into client-side navigations, as <Link> and <Form> would.
 * Targets are absolute paths, so there is nothing to resolve, and every route is in the manifest
 * the client loads at start (remix.config.js leaves lazy route discovery off).
 */
import { useNavigate, useSubmit } from "@remix-run/react";
import { useEffect, type AnchorHTMLAttributes, type FormHTMLAttributes } from "react";

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
      // The link's own parts of its resolved address: no URL to parse.
      if (link.origin !== window.location.origin) return;
      event.preventDefault();
      navigate(link.pathname + link.search + link.hash, {
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
