import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { NotFoundScreen } from "~/components/error-screen";
import { requireUser } from "~/web/sign-in.server";

/** Every path but the sign-in routes needs a session, /profile, /settings and /admin included. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  throw json(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundScreen />;
}

export function ErrorBoundary() {
  return <NotFoundScreen />;
}
