import { json, type ActionFunctionArgs } from "@remix-run/node";
import { RouteErrorPanel } from "~/components/route-error-panel";
import { LOGOUT_FAILED, logout } from "~/web/sign-in.server";

/** Signing out changes state: only the header's POST form does it. */
export function loader() {
  throw json({ message: "Use the Logout button to sign out." }, { status: 405, headers: { Allow: "POST" } });
}

export function action({ request, context }: ActionFunctionArgs) {
  return logout(request, context);
}

export default function LogoutRoute() {
  return null;
}

export function ErrorBoundary() {
  return <RouteErrorPanel fallback={LOGOUT_FAILED} />;
}
