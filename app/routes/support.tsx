import type { MetaFunction } from "@remix-run/node";
import { SupportScreen } from "~/components/support-screen";

/** Public, as /login is: a person who cannot sign in needs it most. */
export const meta: MetaFunction = () => [{ title: "Contact Support – Crib Search" }];

export default function SupportRoute() {
  return <SupportScreen />;
}
