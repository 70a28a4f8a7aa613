import type { ActionFunctionArgs } from "@remix-run/node";
import { changeTheme, toHome } from "~/web/preferences.server";

/** The header's theme toggle posts here; it sets the theme cookie and goes back to the page. */
export function action({ request }: ActionFunctionArgs) {
  return changeTheme(request);
}

export function loader() {
  return toHome();
}
