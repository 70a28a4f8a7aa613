import type { Segment } from "~/search/search-view";

/** Engine text rendered as text; highlighted runs become <mark>. Never parsed as HTML. */
export function Highlighted({ segments }: { segments: Segment[] }) {
  return (
    <>
      {segments.map((s, i) => (s.mark ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>))}
    </>
  );
}
