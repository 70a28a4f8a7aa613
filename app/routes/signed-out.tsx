import type { MetaFunction } from "@remix-run/node";
import { SignedOutScreen } from "~/components/sign-in-screens";

/** Public: the provider's logout sends the browser here (`post_logout_redirect_uri`), with a `state` it carries back. */
export const meta: MetaFunction = () => [{ title: "Signed out – Crib Search" }];

export default function SignedOutRoute() {
  return <SignedOutScreen />;
}
