export { default, loader, meta } from "./debug";
