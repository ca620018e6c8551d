import { COMMANDS } from '../../../src/cli/commands';
import { runCli } from '../../utils/run-process';

jest.setTimeout(120_000);

/** No database is reachable here: help and flag errors must not need one. */
const cli = (args: string[]) => runCli(args, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });

describe('CLI help and flags', () => {
  it.each([['--help'], ['-h'], ['help']])('%s prints every command on stdout and exits 0', async (flag) => {
    const res = await cli([flag]);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.stdout).toMatch(/^Usage: npm run cli -- <command> \[--flags\]/);
    for (const command of COMMANDS) expect(res.stdout).toContain(`  ${command.name}`);
  });

  it.each(COMMANDS.map((c) => [c.name]))('%s --help prints its usage and flags and exits 0', async (name) => {
    const command = COMMANDS.find((c) => c.name === name)!;
    const res = await cli([name, '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`Usage: npm run cli -- ${command.usage}`);
    for (const flag of Object.keys(command.flags)) expect(res.stdout).toContain(`--${flag}`);
  });

  it('names an unknown flag and the flags the command takes', async () => {
    const res = await cli(['api-key:create', '--emial', 'a@example.com', '--name', 'k', '--scopes', 'user.read']);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe(
      'Error: Unknown flag --emial for api-key:create; its flags: --email, --name, --scopes, --test',
    );
  });

  it('an unknown command points at --help', async () => {
    const res = await cli(['nope']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^Error: Unknown command nope; commands: .*seed:demo.*\(npm run cli -- --help\)$/);
  });
});
