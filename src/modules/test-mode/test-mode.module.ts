import { Module } from '@nestjs/common';
import { SalesModule } from '../billing';
import { CatalogModule, FileStorageModule } from '../catalog';
import { IdentityModule } from '../identity';
import { TestDataController } from './test-data.controller';
import { TestDataRepository } from './test-data.repository';
import { TestDataService } from './test-data.service';

/**
 * Test mode's own route (README, *Test mode*). The mode itself needs no module: a test store is a
 * store, so every other module keeps test and live data apart by the store id it already scopes by.
 */
@Module({
  imports: [IdentityModule, FileStorageModule, CatalogModule, SalesModule],
  controllers: [TestDataController],
  providers: [TestDataRepository, TestDataService],
})
export class TestModeModule {}
