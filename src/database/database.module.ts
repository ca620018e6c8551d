import { DynamicModule, Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DatabaseConnection } from './database-connection';
import { dataSourceOptions } from './data-source-options';
import { enablePreparedStatements, isPGlite } from './prepared-statements';

@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  static forRoot(connection: DatabaseConnection): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...dataSourceOptions(connection.url, connection.poolSize),
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
      providers: [{ provide: DatabaseConnection, useValue: connection }],
      exports: [DatabaseConnection],
    };
  }

  constructor(private readonly connection: DatabaseConnection) {}

  async onApplicationShutdown(): Promise<void> {
    // TypeORM closes its pool before this hook; the embedded server goes last.
    await this.connection.close();
  }
}
