import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AuthFailedScreen } from "~/components/sign-in-screens";
import { loadCallback } from "~/web/sign-in.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadCallback(request, context);
}

export const meta: MetaFunction = () => [{ title: "Authentication Failed – Crib Search" }];

export default function CallbackRoute() {
  const { message } = useLoaderData<typeof loader>();
  return <AuthFailedScreen message={message} />;
}
