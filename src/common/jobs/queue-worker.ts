import type { Logger } from '@nestjs/common';
import type PgBoss from 'pg-boss';

/** How a {@link QueueWorker} runs one job; its rejection fails the job (pg-boss retries it). */
export type JobRunner = (job: PgBoss.Job<object>) => Promise<void>;

/**
 * Works one queue in this process: up to `concurrency` jobs at once, each on its own (a slow job
 * holds its slot only), with the pg-boss round trips shared. Slots freed in one turn of the event
 * loop are filled by one fetch, and jobs finished in one turn are marked completed by one
 * statement; with the queue busy that is a fraction of a statement per job instead of two, with
 * it idle a single job is fetched and completed at once, as before.
 */
export class QueueWorker {
  private running = 0;
  private fetching = false;
  /** A wake-up came while fetching: fetch again before resting. */
  private wokenWhileFetching = false;
  private fillScheduled = false;
  private stopped = false;
  private readonly finished: string[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private flushScheduled = false;
  private poll?: NodeJS.Timeout;
  private drained?: () => void;

  constructor(
    private readonly boss: PgBoss,
    private readonly name: string,
    private readonly run: JobRunner,
    private readonly options: { concurrency: number; pollSeconds: number; expireInSeconds: number },
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.poll = setInterval(() => this.wake(), this.options.pollSeconds * 1000);
    this.poll.unref();
    this.wake();
  }

  /** A job may be waiting (one was sent, or a slot freed): fill the free slots soon. */
  wake(): void {
    if (this.stopped) return;
    if (this.fetching) {
      this.wokenWhileFetching = true;
      return;
    }
    if (this.fillScheduled) return;
    this.fillScheduled = true;
    // After the current turn's I/O callbacks: every slot they freed is filled by one fetch.
    setImmediate(() => {
      this.fillScheduled = false;
      void this.fill();
    });
  }

  private async fill(): Promise<void> {
    if (this.fetching || this.stopped) return;
    this.fetching = true;
    try {
      for (;;) {
        const free = this.options.concurrency - this.running;
        if (free <= 0 || this.stopped) break;
        this.wokenWhileFetching = false;
        const jobs = (await this.boss.fetch<object>(this.name, { batchSize: free })) ?? [];
        for (const job of jobs) this.begin(job);
        if (jobs.length < free && !this.wokenWhileFetching) break;
      }
    } catch (error) {
      this.logger.error({ err: error, queue: this.name }, 'Fetching jobs failed; the next poll tries again');
    } finally {
      this.fetching = false;
    }
  }

  private begin(job: PgBoss.Job<object>): void {
    this.running++;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Job ran longer than ${this.options.expireInSeconds} s`)),
        this.options.expireInSeconds * 1000,
      );
    });
    Promise.race([this.run(job), expired])
      .then(
        () => this.complete(job.id),
        (error: unknown) => {
          // Never silent: every failed run is logged; pg-boss retries it or records it failed.
          this.logger.error({ err: error, queue: this.name, jobId: job.id }, 'Background job failed');
          return this.boss.fail(this.name, job.id, failureOf(error)).then(() => undefined);
        },
      )
      .catch((error: unknown) =>
        this.logger.error({ err: error, queue: this.name, jobId: job.id }, 'Recording a job outcome failed'),
      )
      .finally(() => {
        clearTimeout(timer);
        this.running--;
        if (this.stopped) {
          if (!this.running) this.drained?.();
        } else this.wake();
      });
  }

  /** Marks the job completed with the others finished in this turn (one statement). */
  private complete(id: string): Promise<void> {
    this.finished.push(id);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      this.flushing = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        this.flushScheduled = false;
        await this.boss.complete(this.name, this.finished.splice(0));
      });
    }
    return this.flushing;
  }

  /** Stops fetching and waits (at most `graceMs`) for the jobs in hand to finish and be recorded. */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    if (this.running) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => (this.drained = resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(timer);
    }
    await this.flushing.catch(() => undefined);
  }
}

/** What pg-boss records as the failed job's output: the error's message and stack. */
function failureOf(error: unknown): object {
  return error instanceof Error ? { message: error.message, stack: error.stack } : { message: String(error) };
}
