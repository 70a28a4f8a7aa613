export type ExportScope = "all" | "page";
