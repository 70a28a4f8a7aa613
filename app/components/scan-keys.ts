import { useEffect } from "react";

/**
 * A keyboard wedge (a barcode scanner that types) sends a code's characters a few milliseconds
 * apart and then Enter (docs/decisions/038). In a text field a hand types too, at 80 ms or more a
 * key, rolling two or three keys closer now and then: there a scan is at least `MIN_LENGTH`
 * characters each within `FIELD_GAP_MS` of the one before, and Enter as soon after. Elsewhere
 * (a heading, a link, the page) typing does nothing, so keys with pauses up to `PAGE_GAP_MS` count:
 * a scanner slowed by a busy terminal is still a scan.
 */
export const SCAN = { FIELD_GAP_MS: 50, PAGE_GAP_MS: 500, MIN_LENGTH: 4 } as const;

/** The characters typed since the last pause or other key, and when the last came. */
export class ScanBurst {
  private text = "";
  private last = 0;

  /** A printable key at `time` (ms), at most `gap` ms after the one before to continue. Returns whether it began a burst. */
  key(char: string, time: number, gap: number): boolean {
    const begins = this.text === "" || time - this.last > gap;
    this.text = begins ? char : this.text + char;
    this.last = time;
    return begins;
  }

  /** Enter at `time`: the scanned code, or null when the keys were typed by hand. Starts again either way. */
  enter(time: number, gap: number): string | null {
    const text = this.text;
    this.text = "";
    return text.length >= SCAN.MIN_LENGTH && time - this.last <= gap ? text : null;
  }

  /** Any other key (Tab, an arrow, Backspace) ends the burst. */
  reset(): void {
    this.text = "";
  }
}

const MODIFIERS = new Set(["Shift", "Control", "Alt", "AltGraph", "Meta", "CapsLock"]);

function isTextField(element: Element | null): element is HTMLInputElement | HTMLTextAreaElement {
  return element instanceof HTMLTextAreaElement || (element instanceof HTMLInputElement && typeof element.selectionStart === "number");
}

/**
 * The page's keys: `/` (typed where it types nothing) puts the focus in the header's box
 * (`boxId`), and scans land whatever was done last. After a filter, a page, a sort, a dialog
 * closed or the item page's Next, the focus is on a heading or a link, where a scan's keys went
 * nowhere and its Enter followed the link. A burst that ends in Enter anywhere on the page is
 * searched from the header's box, as if typed there: its Enter never reaches the focused element,
 * and a text field the burst typed into gets its own text back. Keys typed by hand are left alone;
 * in the box itself a scan is the box's own search.
 */
export function usePageKeys(boxId: string): void {
  useEffect(() => {
    const burst = new ScanBurst();
    // Where the burst began: a text field there gets its text back.
    let began = { field: null as HTMLInputElement | HTMLTextAreaElement | null, value: "", gap: 0 };
    const box = () => document.getElementById(boxId) as HTMLInputElement | null;
    const onKey = (event: KeyboardEvent, target: Element | null) => {
      const field = isTextField(target) ? target : null;
      const gap = field ? SCAN.FIELD_GAP_MS : SCAN.PAGE_GAP_MS;
      if (!burst.key(event.key, event.timeStamp, began.gap)) return;
      began = { field, value: field?.value ?? "", gap };
      if (event.key === "/" && !field && !(target instanceof HTMLSelectElement)) {
        event.preventDefault();
        box()?.focus();
        box()?.select();
      }
    };
    const onEnter = (event: KeyboardEvent) => {
      const code = burst.enter(event.timeStamp, began.gap);
      const form = box()?.form;
      if (code === null || !form) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      if (began.field) began.field.value = began.value;
      box()!.value = code;
      box()!.focus();
      form.requestSubmit();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.id === boxId) burst.reset();
      else if (event.key.length === 1) onKey(event, target);
      else if (event.key === "Enter") onEnter(event);
      else if (!MODIFIERS.has(event.key)) burst.reset();
    };
    // A click or Tab elsewhere ends a burst.
    const onFocusIn = () => burst.reset();
    // Before any element's own handler: a focused link or button never sees the scan's Enter.
    window.addEventListener("keydown", onKeyDown, true);
    window.addEventListener("focusin", onFocusIn);
    return () => {
      window.removeEventListener("keydown", onKeyDown, true);
      window.removeEventListener("focusin", onFocusIn);
    };
  }, [boxId]);
}
