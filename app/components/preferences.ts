import { createContext } from "react";

/**
 * The shell's per-browser preferences: the colour theme and lite mode (pages without any
 * JavaScript, for low-power terminals). Both live in cookies, so the server renders the page as
 * it will stay: no flash of the wrong theme, no script to fetch in lite mode.
 */
export type ThemeMode = "light" | "dark" | "auto";
export const THEME_MODES: readonly ThemeMode[] = ["light", "dark", "auto"];

export interface ShellPreferences {
  theme: ThemeMode;
  lite: boolean;
}

export const DEFAULT_PREFERENCES: ShellPreferences = { theme: "auto", lite: false };

/** The POST targets of the header's theme toggle and the footer's lite-mode switch. */
export const THEME_PATH = "/theme";
export const LITE_PATH = "/lite";
/** `?lite=1` or `?lite=0` on any page sets lite mode for this browser (and is then dropped from the address). */
export const LITE_PARAM = "lite";

export function isThemeMode(value: unknown): value is ThemeMode {
  return typeof value === "string" && (THEME_MODES as readonly string[]).includes(value);
}

/** Spec §4 "Theme": the toggle switches light to dark and any other mode to light. */
export function toggledTheme(mode: ThemeMode): ThemeMode {
  return mode === "light" ? "dark" : "light";
}

/**
 * The preferences of the document being rendered, from the request's cookies (set by
 * entry.server); the layout prefers the root loader's copy, which the browser has too.
 */
export const PreferencesContext = createContext<ShellPreferences>(DEFAULT_PREFERENCES);
