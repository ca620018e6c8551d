/**
 * A service process for the sweep crash test: boots the app on DATABASE_URL with a plugin that
 * SIGKILLs the process inside the transaction of the KILL_AT-th `KILL_ON` event, then runs one
 * sweep as of AT. The transactions of the events before it committed; that one never does.
 */
import 'reflect-metadata';
import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { createApp, ready } from '../../../src/app.factory';
import { DomainEvents } from '../../../src/common/events/domain-events';
import { loadConfig } from '../../../src/config/app-config';
import { DatabaseConnection } from '../../../src/database/database-connection';
import { SubscriptionSweep } from '../../../src/modules/billing/subscriptions/subscription-sweep.service';

@Injectable()
class KillSwitch implements OnModuleInit {
  private seen = 0;
  constructor(private readonly events: DomainEvents) {}
  onModuleInit(): void {
    this.events.inTransaction([process.env.KILL_ON!], async () => {
      this.seen += 1;
      if (this.seen === Number(process.env.KILL_AT)) {
        process.stdout.write('killing\n');
        process.kill(process.pid, 'SIGKILL');
        await new Promise(() => undefined);
      }
    });
  }
}

@Module({ providers: [KillSwitch] })
class KillSwitchPlugin {}

async function main(): Promise<void> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    // The test app's (given by the test): one delivery secret for the database.
    DATA_DIR: process.env.DATA_DIR,
    BASE_URL: process.env.BASE_URL,
    WEBHOOK_WORKER: 'false',
    SUBSCRIPTION_SWEEP_SECONDS: '86400',
    DATABASE_URL: process.env.DATABASE_URL,
  });
  const connection = await DatabaseConnection.open(config);
  const app = await createApp(config, connection, { plugins: [KillSwitchPlugin] });
  await ready(app);
  const report = await app.get(SubscriptionSweep).sweep(new Date(process.env.AT!));
  process.stdout.write(`finished ${JSON.stringify(report)}\n`);
  await app.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
