import { redirect } from "@remix-run/node";
import { HOME_PATH } from "~/search/paths";

export function loader() {
  return redirect(HOME_PATH);
}
