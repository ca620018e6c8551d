import type { MultipartFile } from '@fastify/multipart';
import {
  CallHandler,
  createParamDecorator,
  ExecutionContext,
  Inject,
  Injectable,
  NestInterceptor,
} from '@nestjs/common';
import { catchError, from, mergeMap, Observable, throwError } from 'rxjs';
import { BadRequestError, PayloadTooLargeError, ValidationError } from '../../../common/errors/app-error';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { AuthenticatedRequest } from '../../identity';
import { parseRef } from '../catalog-refs';
import { ProductsService } from '../products/products.service';
import { contentTypeFor } from './storage/content-type';
import { FILE_STORAGE, FileStorage, newStorageKey } from './storage/file-storage';

/** An upload as stored, handed to the handler by `@StoredUpload()`. */
export interface UploadedFile {
  /** The file name the client sent. */
  originalname: string;
  key: string;
  size: number;
  contentType: string;
}

/** The API's request (`principal`) or a dashboard page's (`seller`, set by its session guard). */
type UploadRequest = AuthenticatedRequest & { storedUpload?: UploadedFile; seller?: { storeId: number } };

/** The upload the interceptor stored, if the request was multipart with a file. */
export const StoredUpload = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): UploadedFile | undefined =>
    ctx.switchToHttp().getRequest<UploadRequest>().storedUpload,
);

const ONE_FILE = 'Upload exactly one file, in the multipart field "file".';

/** The storage driver failed (our fault, 500), as opposed to a broken request body (the client's). */
class StorageWriteError extends Error {
  constructor(override readonly cause: unknown) {
    super('The storage driver could not store an upload');
  }
}

/**
 * Streams the multipart field `file` into storage before the handler runs; the other fields become
 * the body. The product is checked first, so an unknown or foreign product costs no upload; the
 * guard has already run, so neither does a missing token or scope. JSON bodies pass through
 * untouched. Nothing is buffered whole in memory or on a temporary disk.
 */
@Injectable()
export class FileUploadInterceptor implements NestInterceptor {
  private readonly limits: { fileSize: number; files: number; fields: number; parts: number; fieldSize: number };

  constructor(
    private readonly products: ProductsService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limits = { fileSize: config.maxFileBytes, files: 1, fields: 8, parts: 9, fieldSize: 4096 };
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<UploadRequest>();
    if (!req.isMultipart()) return next.handle();

    const storeId = req.principal?.storeId ?? req.seller?.storeId;
    if (storeId === undefined) throw new Error('FileUploadInterceptor on a route without a store');
    const params = req.params as { id?: unknown; pid?: unknown };
    await this.products.requireRef(storeId, parseRef(String(params.id ?? params.pid)));
    const { fields, file } = await this.receive(req);
    req.body = fields;
    req.storedUpload = file;
    // A failure after the bytes are stored (validation of the other fields, a lost race with a
    // product delete) must not leave an object nobody points to.
    return next.handle().pipe(
      catchError((error: unknown) => {
        const cleanup = file ? this.storage.delete(file.key).catch(() => undefined) : Promise.resolve();
        return from(cleanup).pipe(mergeMap(() => throwError(() => error)));
      }),
    );
  }

  private async receive(req: UploadRequest): Promise<{ fields: Record<string, string>; file?: UploadedFile }> {
    const fields: Record<string, string> = {};
    let stored: UploadedFile | undefined;
    try {
      for await (const part of req.parts({ limits: this.limits })) {
        if (part.type === 'field') {
          fields[part.fieldname] = String(part.value);
          continue;
        }
        // A browser's form with no file chosen sends an empty part without a name: no file at all.
        if (part.fieldname === 'file' && !part.filename) {
          part.file.resume();
          continue;
        }
        if (part.fieldname !== 'file' || stored) {
          part.file.resume();
          throw ValidationError.field('file', ONE_FILE);
        }
        stored = await this.store(part);
      }
    } catch (error) {
      if (stored) await this.storage.delete(stored.key).catch(() => undefined);
      throw uploadError(error);
    }
    return { fields, file: stored };
  }

  private async store(part: MultipartFile): Promise<UploadedFile> {
    const key = newStorageKey();
    const contentType = contentTypeFor(part.filename, part.mimetype);
    let bodyFailed = false;
    part.file.once('error', () => (bodyFailed = true));
    let size: number;
    try {
      ({ size } = await this.storage.put(key, part.file, contentType));
    } catch (error) {
      await this.storage.delete(key).catch(() => undefined);
      throw bodyFailed ? error : new StorageWriteError(error);
    }
    // Past the size limit the part ends early: what was stored is not the file.
    if (part.file.truncated) {
      await this.storage.delete(key).catch(() => undefined);
      throw new PayloadTooLargeError();
    }
    return { originalname: part.filename, key, size, contentType };
  }
}

function uploadError(error: unknown): unknown {
  if (error instanceof StorageWriteError) return error.cause;
  if (error instanceof ValidationError || error instanceof PayloadTooLargeError) return error;
  // Everything else comes from parsing the client's body (busboy: "Unexpected end of form", …).
  switch ((error as { code?: unknown }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new PayloadTooLargeError();
    case 'FST_FILES_LIMIT':
      return ValidationError.field('file', ONE_FILE);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return ValidationError.field('file', 'The multipart form could not be read.');
    default:
      return new BadRequestError('Malformed multipart body.');
  }
}
