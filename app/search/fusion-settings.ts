/**
 * The search platform's settings, one type under one name: the configuration reads them from the
 * environment (`AppConfig.fusion`, with the circuit breaker's), the Fusion engine takes them.
 */
export interface FusionSettings {
  url: string;
  app: string;
  queryProfile: string;
  collection?: string;
  apiKey?: string;
  bomProfile: string;
  assetBomProfile: string;
  timeoutMs: number;
}

/** The circuit breaker in front of the platform (the composition root builds it). */
export interface BreakerSettings {
  breakerThreshold: number;
  breakerCooldownMs: number;
}
