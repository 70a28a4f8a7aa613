import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadDebug } from "~/web/debug.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadDebug(request, context);
}

export const meta: MetaFunction = () => [{ title: "Diagnostics – Crib Search" }, { name: "robots", content: "noindex" }];

/** Sign-in and configuration diagnostics for operators (secrets redacted). */
export default function DebugRoute() {
  const { report } = useLoaderData<typeof loader>();
  return (
    <section className="debug" aria-labelledby="debug-title">
      <h1 id="debug-title">Diagnostics</h1>
      <p className="muted">For operators: the sign-in state, the configuration (secrets redacted) and the sign-in address.</p>
      <pre>{report}</pre>
    </section>
  );
}
