import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { signalsApi } from "~/web/signals-api.server";

export function action({ request, context }: ActionFunctionArgs) {
  return signalsApi(request, context);
}

export function loader({ request, context }: LoaderFunctionArgs) {
  return signalsApi(request, context);
}
