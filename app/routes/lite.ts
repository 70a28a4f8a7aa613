import type { ActionFunctionArgs } from "@remix-run/node";
import { changeLite, toHome } from "~/web/preferences.server";

/** The footer's lite-mode switch posts here; it sets the lite cookie and goes back to the page. */
export function action({ request }: ActionFunctionArgs) {
  return changeLite(request);
}

export function loader() {
  return toHome();
}
