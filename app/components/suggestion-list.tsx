import type { Suggestions } from "./use-suggestions";

export const SUGGESTION_LIST_ID = "site-search-suggestions";
export const suggestionId = (index: number) => `site-search-option-${index}`;

/** The list under the box: loading, failed, none found, or the suggestions as options. */
export function SuggestionList({ suggestions, open, choose }: { suggestions: Suggestions; open: boolean; choose: (value: string, position: number) => void }) {
  return (
    <div className="typeahead" hidden={!open}>
      {suggestions.kind === "loading" && <p className="typeahead-status">Loading suggestions...</p>}
      {suggestions.kind === "failed" && <p className="typeahead-status error">Failed to load suggestions</p>}
      {suggestions.kind === "list" && suggestions.items.length === 0 && <p className="typeahead-status">No suggestions found</p>}
      <ul role="listbox" id={SUGGESTION_LIST_ID} aria-label="Suggestions">
        {suggestions.kind === "list" &&
          suggestions.items.map((item, index) => (
            <li
              key={item}
              id={suggestionId(index)}
              role="option"
              aria-selected={index === suggestions.active}
              // Keeps the focus in the box, whose blur would close the list before the click.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(item, index)}
            >
              {item}
            </li>
          ))}
      </ul>
    </div>
  );
}
