import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LoginScreen } from "~/components/sign-in-screens";
import { loadLogin } from "~/web/auth.server";

export function loader({ request }: LoaderFunctionArgs) {
  return loadLogin(request);
}

export const meta: MetaFunction = () => [{ title: "Sign in – Crib Search" }];

export default function LoginRoute() {
  const { error } = useLoaderData<typeof loader>();
  return <LoginScreen error={error} />;
}
