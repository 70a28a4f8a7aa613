const LINKS: [string, string][] = [
  ["/support", "Support"],
  ["/warranty", "Warranty"],
  ["/contact", "Contact"],
  ["/products/refrigerators", "Refrigerators"],
  ["/products/washers", "Washers"],
  ["/products/ranges", "Ranges"],
  ["/products/dishwashers", "Dishwashers"],
  ["/privacy", "Privacy"],
  ["/terms", "Terms"],
  ["/accessibility", "Accessibility"],
  ["/cookies", "Cookies"],
];

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <nav aria-label="Footer">
        <ul>
          {LINKS.map(([href, label]) => (
            <li key={href}>
              <a href={href}>{label}</a>
            </li>
          ))}
        </ul>
      </nav>
    </footer>
  );
}
