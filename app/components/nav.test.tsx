import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AppForm, AppLink } from "./nav";

describe("AppLink", () => {
  it("renders a plain link marked for client-side navigation, with the given attributes", () => {
    const html = renderToStaticMarkup(
      <AppLink to={"/crib-search/search?q=pump&f=org_code%3ALOU"} className="facet-toggle" aria-label="Include Org Code: LOU" title="Only show this value">
        +
      </AppLink>,
    );
    expect(html).toBe(
      '<a class="facet-toggle" aria-label="Include Org Code: LOU" title="Only show this value" href="/crib-search/search?q=pump&amp;f=org_code%3ALOU" data-nav="">+</a>',
    );
  });

  it("turns its own options into data attributes and leaves them off the element", () => {
    const html = renderToStaticMarkup(
      <AppLink to="/where-used/W1" preventScrollReset replace>
        Where used
      </AppLink>,
    );
    expect(html).toBe('<a href="/where-used/W1" data-nav="" data-keep-scroll="" data-replace="">Where used</a>');
  });

  it("passes event handlers and other props to the element", () => {
    const onClick = () => undefined;
    const element = AppLink({ to: "/product/a", onClick, id: "first", children: "a" });
    expect(element.type).toBe("a");
    expect(element.props).toEqual({ onClick, id: "first", children: "a", href: "/product/a", "data-nav": "" });
  });
});

describe("AppForm", () => {
  it("renders a GET form to the action, marked for client-side navigation", () => {
    const html = renderToStaticMarkup(
      <AppForm action="/crib-search/search" className="search" role="search" preventScrollReset>
        <input name="q" />
      </AppForm>,
    );
    expect(html).toBe('<form class="search" role="search" method="get" action="/crib-search/search" data-nav="" data-keep-scroll=""><input name="q"/></form>');
  });
});
