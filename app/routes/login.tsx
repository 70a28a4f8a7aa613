import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";
import { LoginScreen } from "~/components/sign-in-screens";
import { loadLogin } from "~/web/sign-in.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadLogin(request, context);
}

export const meta: MetaFunction = () => [{ title: "Sign in – Crib Search" }];

export default function LoginRoute() {
  const { error, detail } = useLoaderData<typeof loader>();
  const support = useRouteLoaderData<typeof rootLoader>("root")?.support ?? null;
  return <LoginScreen error={error} detail={detail} supportHref={support} />;
}
