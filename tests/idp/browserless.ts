/**
 * Signs in at the test identity provider without a browser: follows its redirects with the
 * provider's cookies, fills its development login form and gives consent, and returns the
 * callback URL the provider sends the browser back to (never fetched: the caller hands it to the
 * portal, in process or over HTTP).
 */

/** The cookies a browser keeps for one site, by name. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

const FORM_ACTION = /<form[^>]*action="([^"]+)"/;

/**
 * From the provider's authorization URL to the portal's callback URL, as `login` (any password).
 * `isCallback` tells the portal's address from the provider's.
 */
export async function signInAtIdp(authorizationUrl: string, login: string, isCallback: (url: URL) => boolean): Promise<string> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let body: URLSearchParams | null = null;
  for (let step = 0; step < 20; step++) {
    const response: Response = await fetch(url, {
      method: body ? "POST" : "GET",
      headers: { Cookie: jar.header(), ...(body ? { "Content-Type": "application/x-www-form-urlencoded" } : {}) },
      ...(body ? { body } : {}),
      redirect: "manual",
    });
    jar.take(response);
    body = null;
    const location = response.headers.get("location");
    if (location) {
      const next = new URL(location, url);
      if (isCallback(next)) return next.toString();
      url = next.toString();
      await response.body?.cancel();
      continue;
    }
    const html: string = await response.text();
    const action = FORM_ACTION.exec(html)?.[1];
    if (response.status !== 200 || !action) throw new Error(`The provider answered ${response.status} at ${url}:\n${html.slice(0, 500)}`);
    url = new URL(action.replaceAll("&amp;", "&"), url).toString();
    // The login form asks for a login and a password; the consent form for nothing but its prompt.
    body = html.includes('name="login"')
      ? new URLSearchParams({ prompt: "login", login, password: "any password" })
      : new URLSearchParams({ prompt: "consent" });
  }
  throw new Error("The provider never sent the browser back to the portal.");
}
