import { DynamicModule, Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NO_PLUGIN_SCHEMA, PluginSchema } from '../common/plugins/contributions';
import { DatabaseConnection } from './database-connection';
import { DeliverySecretCheck } from './delivery-secret-check';
import { dataSourceOptions } from './data-source-options';
import { enablePreparedStatements, isPGlite } from './prepared-statements';
import { Transactions } from './transaction';

@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  /** `plugins`: the entities and migrations of the app's plugins, run with core's. */
  static forRoot(connection: DatabaseConnection, plugins: PluginSchema = NO_PLUGIN_SCHEMA): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...dataSourceOptions(connection.url, connection.poolSize, plugins),
            migrationsRun: true,
            autoLoadEntities: true,
          }),
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            // Asked of the server, not of our configuration: a worker, the CLI or a test can reach
            // an embedded database through its URL.
            if (!(await isPGlite(dataSource))) enablePreparedStatements(dataSource);
            return dataSource;
          },
        }),
      ],
      providers: [{ provide: DatabaseConnection, useValue: connection }, Transactions, DeliverySecretCheck],
      exports: [DatabaseConnection, Transactions, DeliverySecretCheck],
    };
  }

  constructor(private readonly connection: DatabaseConnection) {}

  async onApplicationShutdown(): Promise<void> {
    // TypeORM closes its pool before this hook; the embedded server goes last.
    await this.connection.close();
  }
}
