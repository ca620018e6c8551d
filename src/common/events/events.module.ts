import { Global, Module } from '@nestjs/common';
import { JobQueue } from '../jobs/job-queue';
import { DomainEvents } from './domain-events';

/** The durable job queue and the domain-event hooks, available to every module. */
@Global()
@Module({
  providers: [JobQueue, DomainEvents],
  exports: [JobQueue, DomainEvents],
})
export class EventsModule {}
