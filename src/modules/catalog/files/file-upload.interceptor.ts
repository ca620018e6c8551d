import type { MultipartFile } from '@fastify/multipart';
import {
  CallHandler,
  createParamDecorator,
  ExecutionContext,
  Inject,
  Injectable,
  NestInterceptor,
} from '@nestjs/common';
import { PassThrough, type Readable } from 'node:stream';
import { catchError, from, mergeMap, Observable, throwError } from 'rxjs';
import { AppError, BadRequestError, PayloadTooLargeError, ValidationError } from '../../../common/errors/app-error';
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
type UploadRequest = AuthenticatedRequest & {
  storedUpload?: UploadedFile;
  uploadFailure?: AppError;
  seller?: { storeId: number };
};

/** The upload the interceptor stored, if the request was multipart with a file. */
export const StoredUpload = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): UploadedFile | undefined =>
    ctx.switchToHttp().getRequest<UploadRequest>().storedUpload,
);

/**
 * Why the body could not be taken, on a route of {@link FormUploadInterceptor}: the client's
 * fault (400, 413, 422), nothing stored. Undefined when it was taken.
 */
export const UploadFailure = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): AppError | undefined =>
    ctx.switchToHttp().getRequest<UploadRequest>().uploadFailure,
);

const ONE_FILE = 'Upload exactly one file, in the multipart field "file".';
const MALFORMED = 'Malformed multipart body.';

/** The storage driver failed (our fault, 500), as opposed to a broken request body (the client's). */
class StorageWriteError extends Error {
  constructor(override readonly cause: unknown) {
    super('The storage driver could not store an upload');
  }
}

/** The client's body broke while a part was being stored (cut off, a part that never ends). */
class MalformedBodyError extends Error {
  constructor(override readonly cause: unknown) {
    super('The multipart body ended in the middle of a part');
  }
}

/**
 * What a storage driver reads of a file part: the part's bytes through a stream of our own, so a
 * failure of the client's body can be told from the driver's. A driver's `pipeline` destroys its
 * source with its own error, so the part's `error` event alone does not say whose fault it was.
 */
class UploadBody {
  readonly stream = new PassThrough();
  /** Set when the client's body failed while the driver read it. */
  failure: unknown;

  constructor(part: Readable) {
    // The driver may not listen yet (it opens its target first); it still finds the stream errored.
    this.stream.on('error', () => undefined);
    part.on('error', (error) => {
      if (this.stream.destroyed) return; // the driver gave up first: its error, not the body's
      this.failure = error;
      this.stream.destroy(error);
    });
    // The driver gave up (its own failure): stop reading the part, which also ends the parts.
    this.stream.once('close', () => {
      if (!part.readableEnded) part.destroy();
    });
    part.pipe(this.stream);
  }

  /**
   * Whether busboy failed the part before it was handed over (a body cut off inside its first
   * chunk): then no `error` event comes any more, and a pipe from it would never end.
   */
  static brokenBefore(part: Readable): boolean {
    return part.errored !== null || (part.destroyed && !part.readableEnded);
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
  /** Whether a bad body reaches the handler (`@UploadFailure()`) instead of being thrown. */
  protected readonly handlerShowsFailures: boolean = false;
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
    let received: { fields: Record<string, string>; file?: UploadedFile };
    try {
      received = await this.receive(req);
    } catch (error) {
      // Nothing is stored by then (receive removes what it stored); only the client's faults are kept.
      if (!this.handlerShowsFailures || !(error instanceof AppError)) throw error;
      req.body = {};
      req.uploadFailure = error;
      return next.handle();
    }
    const { fields, file } = received;
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
    if (UploadBody.brokenBefore(part.file)) throw new MalformedBodyError(part.file.errored);
    const body = new UploadBody(part.file);
    let size: number;
    try {
      ({ size } = await this.storage.put(key, body.stream, contentType));
    } catch (error) {
      await this.storage.delete(key).catch(() => undefined);
      throw body.failure ? new MalformedBodyError(body.failure) : new StorageWriteError(error);
    }
    // Past the size limit the part ends early: what was stored is not the file.
    if (part.file.truncated) {
      await this.storage.delete(key).catch(() => undefined);
      throw new PayloadTooLargeError();
    }
    return { originalname: part.filename, key, size, contentType };
  }
}

/**
 * {@link FileUploadInterceptor} for a dashboard form: a body that cannot be taken (cut off,
 * malformed, too large, a file in another field) goes to the handler as `@UploadFailure()`, which
 * shows it beside the form's file field as any other bad upload, not as an error page.
 */
@Injectable()
export class FormUploadInterceptor extends FileUploadInterceptor {
  protected override readonly handlerShowsFailures = true;
}

function uploadError(error: unknown): unknown {
  if (error instanceof StorageWriteError) return error.cause;
  if (error instanceof MalformedBodyError) return new BadRequestError(MALFORMED);
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
      return new BadRequestError(MALFORMED);
  }
}
