import { CliFlags } from './cli-command';

export class CliUsageError extends Error {}

/** `--name value`, `--name=value`; a repeated flag collects every value. */
export function parseFlags(args: string[]): CliFlags {
  const flags: CliFlags = {};
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (!arg.startsWith('--') || arg === '--') throw new CliUsageError(`Unexpected argument: ${arg}`);
    const eq = arg.indexOf('=');
    let name: string;
    let value: string;
    if (eq > 0) {
      name = arg.slice(2, eq);
      value = arg.slice(eq + 1);
    } else {
      name = arg.slice(2);
      const next = args[i + 1];
      if (next === undefined || next.startsWith('--')) throw new CliUsageError(`Missing value for --${name}`);
      value = next;
      i += 1;
    }
    (flags[name] ??= []).push(value);
  }
  return flags;
}

/** The single value of a required flag. */
export function required(flags: CliFlags, name: string): string {
  const value = optional(flags, name);
  if (value === undefined || value === '') throw new CliUsageError(`Missing --${name}`);
  return value;
}

export function optional(flags: CliFlags, name: string): string | undefined {
  const values = flags[name];
  if (values && values.length > 1) throw new CliUsageError(`--${name} given more than once`);
  return values?.[0];
}
