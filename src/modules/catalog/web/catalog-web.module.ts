import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { IdentityWebModule, WebSessionMiddleware } from '../../identity';
import { CatalogModule } from '../catalog.module';
import { FileStorageModule } from '../files/storage/file-storage.module';
import { FormUploadInterceptor } from '../files/file-upload.interceptor';
import { ProductsPagesController } from './products-pages.controller';
import { ReviewPagesController } from './review-pages.controller';

/**
 * The dashboard's product pages under `{web_url}/products` (products, their files, plans and
 * publishing) and the operators' review queue under `{web_url}/review`.
 */
@Module({
  imports: [IdentityWebModule, CatalogModule, FileStorageModule],
  controllers: [ProductsPagesController, ReviewPagesController],
  providers: [FormUploadInterceptor],
})
export class CatalogWebModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(WebSessionMiddleware).forRoutes(ProductsPagesController, ReviewPagesController);
  }
}
