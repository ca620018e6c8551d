import type { INestApplicationContext } from '@nestjs/common';

/** Parsed `--flag value` pairs; a repeated flag collects every value. */
export type CliFlags = Record<string, string[]>;

/**
 * One operator command (decisions §2.2). `run` resolves to what is printed as JSON on stdout; it
 * throws to fail with one line on stderr and a non-zero exit.
 */
export interface CliCommand {
  name: string;
  usage: string;
  run(app: INestApplicationContext, flags: CliFlags): Promise<unknown>;
}
