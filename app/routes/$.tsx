import { json } from "@remix-run/node";
import { NotFoundScreen } from "~/components/error-screen";

export function loader() {
  throw json(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundScreen />;
}

export function ErrorBoundary() {
  return <NotFoundScreen />;
}
