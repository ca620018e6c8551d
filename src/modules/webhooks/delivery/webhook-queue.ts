import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { JobQueue } from '../../../common/jobs/job-queue';

export const DELIVERY_QUEUE = 'webhook-delivery';

export interface DeliveryJob {
  deliveryId: number;
}

/**
 * Deliveries in flight at once per process: one receiver that hangs for 10 s holds only one. As
 * many as the keep-alive sockets of one destination (http-poster.ts): with 8, a burst of approvals
 * outran the deliveries (docs/performance.md, ninth round).
 */
export const WORKER_CONCURRENCY = 16;

/** How long a claimed job may stay active before it is handed out again (well over 10 s). */
const JOB_EXPIRE_SECONDS = 60;

/**
 * The delivery queue: one queue of the shared {@link JobQueue}. Jobs are inserted with the order's
 * transaction, so the job exists exactly when the order change does.
 */
@Injectable()
export class WebhookQueue {
  constructor(private readonly jobs: JobQueue) {}

  /** Declares the queue and who works it; from `onModuleInit` (WebhookWorker). */
  define(handler: (job: DeliveryJob) => Promise<void>): void {
    this.jobs.define<DeliveryJob>(DELIVERY_QUEUE, (job) => handler(job), {
      // A retry of a job whose delivery was already attempted sends nothing (the claim refuses it);
      // deliveries a dead worker left unfinished are recovered by WebhookWorker's sweep.
      retryLimit: 2,
      retryDelaySeconds: 2,
      retryBackoff: false,
      expireInSeconds: JOB_EXPIRE_SECONDS,
      concurrency: WORKER_CONCURRENCY,
      // Delivered as soon as the order's change commits, not at the next poll.
      wakeOnCommit: true,
    });
  }

  /** Enqueues a delivery, inside `manager`'s transaction when given. */
  enqueue(deliveryId: number, manager?: EntityManager): Promise<void> {
    return this.jobs.send<DeliveryJob>(DELIVERY_QUEUE, { deliveryId }, { manager });
  }
}
