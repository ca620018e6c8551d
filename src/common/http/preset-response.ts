/**
 * A whole response decided before the handler ran (an `Idempotency-Key` replay, README, *Choices where the contract is silent*).
 * Thrown from a guard so the route's interceptors and handler are skipped; the exception filter
 * sends it as is: its status, its headers and its body, with no error mapping.
 */
export class PresetResponse extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`Preset ${status} response`);
    this.name = 'PresetResponse';
  }
}
