import { Injectable } from '@nestjs/common';
import { ProductFilesService } from '../../catalog';
import { ApiKeysService } from '../../identity';
import { WebhooksService } from '../../webhooks';
import { SalesReportService } from '../reports/sales-report.service';

/** The getting-started steps of a new store, each done or not. */
export interface GettingStarted {
  productWithFile: boolean;
  paidOrder: boolean;
  apiKeyOrWebhook: boolean;
}

/** What the dashboard's home page needs besides the sales report: the store's first steps. */
@Injectable()
export class DashboardHomeService {
  constructor(
    private readonly files: ProductFilesService,
    private readonly reports: SalesReportService,
    private readonly keys: ApiKeysService,
    private readonly webhooks: WebhooksService,
  ) {}

  async gettingStarted(storeId: number): Promise<GettingStarted> {
    const [productWithFile, paidOrder, keys, webhooks] = await Promise.all([
      this.files.storeHasFiles(storeId),
      this.reports.hasSales(storeId),
      this.keys.list(storeId),
      this.webhooks.list(storeId, { page: 1, perPage: 1, offset: 0 }),
    ]);
    return {
      productWithFile,
      paidOrder,
      apiKeyOrWebhook: keys.some((key) => !key.revokedAt) || webhooks.total > 0,
    };
  }
}
