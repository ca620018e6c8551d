import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import multer, { MulterError } from 'multer';
import { catchError, from, mergeMap, Observable, throwError } from 'rxjs';
import { BadRequestError, PayloadTooLargeError, ValidationError } from '../../../common/errors/app-error';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { AuthenticatedRequest } from '../../identity/auth/auth.decorators';
import { parseRef } from '../catalog-refs';
import { ProductsService } from '../products/products.service';
import { DriverMulterEngine, StorageWriteError, UploadedFile } from './storage/driver-multer-engine';
import { FILE_STORAGE, FileStorage } from './storage/file-storage';

type UploadRequest = AuthenticatedRequest & { file?: UploadedFile };

/**
 * Streams the multipart field `file` into storage before the handler runs. The product is checked
 * first, so an unknown or foreign product costs no upload; the guard has already run, so neither
 * does a missing token or scope. JSON bodies pass through untouched.
 */
@Injectable()
export class FileUploadInterceptor implements NestInterceptor {
  private readonly upload: RequestHandler;

  constructor(
    private readonly products: ProductsService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.upload = multer({
      storage: new DriverMulterEngine(storage),
      limits: { fileSize: config.maxFileBytes, files: 1, fields: 8, parts: 9, fieldSize: 4096 },
    }).single('file') as RequestHandler;
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const req = http.getRequest<UploadRequest>();
    if (!req.is('multipart/form-data')) return next.handle();

    await this.products.requireRef(req.principal!.storeId, parseRef(String(req.params.id)));
    await new Promise<void>((resolve, reject) =>
      this.upload(req as Request, http.getResponse<Response>(), (error?: unknown) => (error ? reject(uploadError(error)) : resolve())),
    );
    // A failure after the bytes are stored (validation of the other fields, a lost race with a
    // product delete) must not leave an object nobody points to.
    return next.handle().pipe(
      catchError((error: unknown) => {
        const key = req.file?.key;
        const cleanup = key ? this.storage.delete(key).catch(() => undefined) : Promise.resolve();
        return from(cleanup).pipe(mergeMap(() => throwError(() => error)));
      }),
    );
  }
}

function uploadError(error: unknown): unknown {
  if (error instanceof StorageWriteError) return error.cause;
  // Everything else comes from parsing the client's body (busboy: "Unexpected end of form", …).
  if (!(error instanceof MulterError)) return new BadRequestError('Malformed multipart body.');
  switch (error.code) {
    case 'LIMIT_FILE_SIZE':
      return new PayloadTooLargeError();
    case 'LIMIT_UNEXPECTED_FILE':
    case 'LIMIT_FILE_COUNT':
      return ValidationError.field('file', 'Upload exactly one file, in the multipart field "file".');
    default:
      return ValidationError.field('file', 'The multipart form could not be read.');
  }
}
