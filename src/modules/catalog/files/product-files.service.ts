import { DataSource, type EntityManager } from 'typeorm';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { NotFoundError, ValidationError } from '../../../common/errors/app-error';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { inTransaction } from '../../../database/transaction';
import { parseRef } from '../catalog-refs';
import { ProductsService } from '../products/products.service';
import { CreateProductFileDto, ProductFileDto } from './dto/product-file.dto';
import { toProductFileDto } from './product-file.mapper';
import { ProductFile } from './product-file.entity';
import { ProductFilesRepository } from './product-files.repository';
import { cleanFilename, extensionOf } from './storage/content-type';
import type { UploadedFile } from './file-upload.interceptor';
import { FILE_STORAGE, FileStorage } from './storage/file-storage';

@Injectable()
export class ProductFilesService {
  private readonly logger = new Logger(ProductFilesService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly files: ProductFilesRepository,
    private readonly products: ProductsService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Whether any product of the store has a file yet. */
  storeHasFiles(storeId: number): Promise<boolean> {
    return this.files.existsInStore(storeId);
  }

  /**
   * The keys of the stored objects of the store's uploaded files, read in the caller's transaction
   * (test mode's reset removes the rows, then deletes the objects after commit).
   */
  storageKeysOfStore(storeId: number, manager?: EntityManager): Promise<string[]> {
    return this.files.storageKeysOfStore(storeId, manager);
  }

  toDto(file: ProductFile): ProductFileDto {
    return toProductFileDto(file, this.config.urls.cdn);
  }

  /** An already stored upload (see FileUploadInterceptor) or an external link becomes a file of the product. */
  async add(
    storeId: number,
    productRef: string,
    dto: CreateProductFileDto,
    upload?: UploadedFile,
  ): Promise<ProductFile> {
    if (upload) return this.addUpload(storeId, productRef, dto, upload);
    const product = await this.products.requireRef(storeId, parseRef(productRef));
    const errors: Record<string, string[]> = {};
    if (!dto.link) errors.link = ['link is required unless a file is uploaded in the multipart field "file".'];
    if (!dto.name) errors.name = ['name is required for a link.'];
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return this.insert(storeId, product.id, {
      name: dto.name,
      kind: 'link',
      externalUrl: dto.link,
      storageKey: null,
      sizeBytes: 0,
      format: 'link',
      contentType: null,
    });
  }

  private async addUpload(
    storeId: number,
    productRef: string,
    dto: CreateProductFileDto,
    upload: UploadedFile,
  ): Promise<ProductFile> {
    try {
      const product = await this.products.requireRef(storeId, parseRef(productRef));
      const original = cleanFilename(upload.originalname);
      return await this.insert(storeId, product.id, {
        name: dto.name ? cleanFilename(dto.name) : original,
        kind: 'upload',
        storageKey: upload.key,
        externalUrl: null,
        sizeBytes: upload.size,
        format: extensionOf(original),
        contentType: upload.contentType,
      });
    } catch (error) {
      // Stored before any lock was taken (no storage call under a row lock): nothing may point to it now.
      await this.removeObject(upload.key);
      throw error;
    }
  }

  /**
   * Inserts the file row while its product is held (`ProductsService.holdManyForStore`, catalog
   * README, *Product deletion*): a deletion under way is waited for, and its product is then gone
   * (404 `Resource not found.`, as for an unknown product); one that starts later waits for this
   * row and deletes it with the product.
   */
  private insert(
    storeId: number,
    productId: number,
    values: Omit<Partial<ProductFile>, 'storeId' | 'productId'>,
  ): Promise<ProductFile> {
    return inTransaction(this.dataSource, async (manager) => {
      await this.products.holdForStore(storeId, productId, manager, new NotFoundError());
      return this.files.create({ ...values, storeId, productId }, manager);
    });
  }

  async list(storeId: number, productRef: string): Promise<ProductFile[]> {
    const product = await this.products.requireRef(storeId, parseRef(productRef));
    return this.files.listForProduct(storeId, product.id);
  }

  async delete(
    storeId: number,
    productRef: string,
    fileId: number,
  ): Promise<{ productPid: string; file: ProductFile }> {
    const product = await this.products.requireRef(storeId, parseRef(productRef));
    const file = await this.files.findOne(storeId, product.id, fileId);
    if (!file || !(await this.files.delete(file))) throw new NotFoundError();
    if (file.storageKey) await this.removeObject(file.storageKey);
    return { productPid: product.pid, file };
  }

  /** The files a buyer of the product may download (order portal), as product file objects of the OpenAPI description. */
  async filesOfProduct(storeId: number, productId: number): Promise<ProductFileDto[]> {
    const files = await this.files.listForProduct(storeId, productId);
    return files.map((file) => this.toDto(file));
  }

  /** The CDN's lookup by the unguessable key of a link. */
  findDownload(storageKey: string): Promise<ProductFile | null> {
    return this.files.findByStorageKey(storageKey);
  }

  private async removeObject(key: string): Promise<void> {
    await this.storage
      .delete(key)
      .catch((error: unknown) => this.logger.warn({ err: error, key }, 'Could not delete stored file'));
  }
}
