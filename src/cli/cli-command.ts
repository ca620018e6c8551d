import type { INestApplicationContext } from '@nestjs/common';

/** Parsed `--flag value` pairs; a repeated flag collects every value. */
export type CliFlags = Record<string, string[]>;

/**
 * One operator command (README, *Operating it*). `run` resolves to what is printed on stdout (JSON unless
 * it returns a string); it throws to fail with one line on stderr and a non-zero exit.
 */
export interface CliCommand {
  name: string;
  usage: string;
  /** One line for `--help`. */
  summary: string;
  /** Every flag the command takes, with its meaning; any other flag is refused by name. */
  flags: Record<string, string>;
  /** Flags that take no value (`--json`). */
  switches?: string[];
  /** Starts without the delivery-secret check, which it exists to settle (`delivery-secret:adopt`). */
  adoptsDeliverySecret?: boolean;
  run(app: INestApplicationContext, flags: CliFlags): Promise<unknown>;
}
