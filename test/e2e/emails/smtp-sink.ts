import { AddressInfo } from 'node:net';
import { ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, SMTPServerDataStream, SMTPServerSession } from 'smtp-server';

export interface ReceivedMail {
  /** The SMTP envelope (RCPT TO), apart from the headers. */
  envelope: { from: string; to: string[] };
  /** The AUTH user the client logged in as. */
  user: string | undefined;
  parsed: ParsedMail;
  raw: string;
}

type Mode = 'accept' | 'refuse' | 'hang';

/**
 * A real SMTP server on 127.0.0.1 (smtp-server), storing what it accepts parsed with mailparser.
 * `refuse` answers 451 after DATA, `hang` reads the message and never answers until released.
 */
export class SmtpSink {
  readonly accepted: ReceivedMail[] = [];
  refusals = 0;
  private mode: Mode = 'accept';
  private held: Array<(error?: Error) => void> = [];
  private waiters: Array<() => void> = [];
  private server!: SMTPServer;
  port = 0;

  static async start(credentials = { user: 'mailer', pass: 's3cret-pass' }): Promise<SmtpSink> {
    const sink = new SmtpSink();
    sink.server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      logger: false,
      closeTimeout: 200,
      onAuth(auth, _session, callback) {
        if (auth.username === credentials.user && auth.password === credentials.pass)
          return callback(null, { user: auth.username });
        callback(Object.assign(new Error('Invalid credentials'), { responseCode: 535 }));
      },
      onData: (stream, session, callback) => sink.onData(stream, session, callback),
    });
    await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
    sink.port = (sink.server.server.address() as AddressInfo).port;
    return sink;
  }

  url(credentials = { user: 'mailer', pass: 's3cret-pass' }): string {
    return `smtp://${credentials.user}:${credentials.pass}@127.0.0.1:${this.port}`;
  }

  /** `refuse` for the next `count` messages (451), then accept again. */
  refuseNext(count: number): void {
    this.mode = 'refuse';
    this.refuseLeft = count;
  }

  hang(): void {
    this.mode = 'hang';
  }

  /** Stops hanging: the held messages are answered 451 (so the sender retries them), later ones accepted. */
  release(): void {
    this.mode = 'accept';
    const held = this.held;
    this.held = [];
    for (const callback of held) callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
  }

  get heldCount(): number {
    return this.held.length;
  }

  private refuseLeft = 0;

  /** Resolves once `count` messages were accepted (or held, with `held`). */
  async waitFor(count: number, what: 'accepted' | 'held' = 'accepted', timeoutMs = 30_000): Promise<ReceivedMail[]> {
    const done = () => (what === 'accepted' ? this.accepted.length : this.held.length) >= count;
    if (!done()) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `SMTP sink: ${this.accepted.length} accepted, ${this.held.length} held; waited for ${count} ${what}`,
              ),
            ),
          timeoutMs,
        );
        const check = () => {
          if (!done()) return false;
          clearTimeout(timer);
          resolve();
          return true;
        };
        const waiter = () => {
          if (check()) this.waiters = this.waiters.filter((w) => w !== waiter);
        };
        this.waiters.push(waiter);
      });
    }
    return this.accepted;
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  private onData(
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    callback: (error?: Error | null) => void,
  ): void {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      if (this.mode === 'refuse') {
        this.refusals++;
        if (--this.refuseLeft <= 0) this.mode = 'accept';
        return callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
      }
      if (this.mode === 'hang') {
        this.held.push((error) => callback(error));
        this.notify();
        return;
      }
      void simpleParser(raw).then((parsed) => {
        this.accepted.push({
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
          },
          user: session.user,
          parsed,
          raw,
        });
        callback();
        this.notify();
      });
    });
  }

  close(): Promise<void> {
    this.release();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
