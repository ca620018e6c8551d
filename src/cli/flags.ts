import { CliFlags } from './cli-command';

export class CliUsageError extends Error {}

/**
 * `--name value`, `--name=value`; a repeated flag collects every value. With `allowed`, a flag not
 * in it is refused by name; `switches` take no value (`--json` is `['true']`).
 */
export function parseFlags(
  args: string[],
  allowed?: { command: string; names: string[]; switches?: string[] },
): CliFlags {
  const flags: CliFlags = {};
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (!arg.startsWith('--') || arg === '--') throw new CliUsageError(`Unexpected argument: ${arg}`);
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (allowed && !allowed.names.includes(name)) {
      const known = allowed.names.map((n) => `--${n}`).join(', ');
      throw new CliUsageError(
        `Unknown flag --${name} for ${allowed.command}; ${known ? `its flags: ${known}` : 'it takes no flags'}`,
      );
    }
    let value: string;
    if (eq > 0) {
      value = arg.slice(eq + 1);
    } else if (allowed?.switches?.includes(name)) {
      value = 'true';
    } else {
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
