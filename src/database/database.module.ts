import { DynamicModule, Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseConnection } from './database-connection';
import { dataSourceOptions } from './data-source-options';

@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  static forRoot(connection: DatabaseConnection): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRoot({
          ...dataSourceOptions(connection.url, connection.poolSize),
          migrationsRun: true,
          autoLoadEntities: true,
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
