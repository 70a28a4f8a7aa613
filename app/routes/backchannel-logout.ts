import type { ActionFunctionArgs } from "@remix-run/node";
import { backchannelLogout } from "~/web/sign-in.server";

/** The identity provider's server calls this with POST; there is nothing to GET. */
export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST", "Cache-Control": "no-store" } });
}

export function action({ request, context }: ActionFunctionArgs) {
  return backchannelLogout(request, context);
}
