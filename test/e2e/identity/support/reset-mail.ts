import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ParsedMail, simpleParser } from 'mailparser';

export interface ResetMail {
  file: string;
  parsed: ParsedMail;
  text: string;
  /** The link of the plain-text part, on its own line. */
  link: string;
  /** The `token` of the link. */
  token: string;
}

/** The password-reset emails written to `$DATA_DIR/outbox/` for `to`, oldest first. */
export async function resetMails(dataDir: string, to: string): Promise<ResetMail[]> {
  const dir = join(dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((name) => /^password-reset\.\d+\.eml$/.test(name))
    .sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
  const mails: ResetMail[] = [];
  for (const name of files) {
    const parsed = await simpleParser(readFileSync(join(dir, name)));
    const address = parsed.to && !Array.isArray(parsed.to) ? parsed.to.value[0]?.address : undefined;
    if (address !== to) continue;
    const text = parsed.text ?? '';
    const link = text.split(/\r?\n/).find((line) => /\/reset-password\?token=/.test(line)) ?? '';
    mails.push({ file: name, parsed, text, link, token: new URL(link).searchParams.get('token') ?? '' });
  }
  return mails;
}

/** Waits for the `count`-th reset email to `to` (the job runs after the answer) and returns it. */
export async function waitForResetMail(dataDir: string, to: string, count = 1, timeoutMs = 30_000): Promise<ResetMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await resetMails(dataDir, to);
    if (mails.length >= count) return mails[count - 1];
    if (Date.now() > deadline) throw new Error(`no password-reset email #${count} to ${to} in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
