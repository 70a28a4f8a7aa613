import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { signalsApi } from "~/web/signals-api.server";

export function action({ request }: ActionFunctionArgs) {
  return signalsApi(request);
}

export function loader({ request }: LoaderFunctionArgs) {
  return signalsApi(request);
}
