import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../../common/errors/app-error';
import { downloadName } from '../files/product-file.mapper';
import type { ProductFile } from '../files/product-file.entity';
import { FILE_STORAGE, FileStorage, StoredObjectMissing } from '../files/storage/file-storage';
import { parseByteRange } from './byte-range';

/** Types a browser may show in place; everything else downloads. */
const INLINE = /^(image\/(png|jpeg|gif|webp)|audio\/|video\/|application\/pdf|text\/plain)/;

/**
 * Sends a stored file the one way this service serves files, `{cdn_url}` and buyers' download
 * links alike: its type, in ranges (media players and resumable downloads), sandboxed so an
 * uploaded page cannot run script on this origin, streamed from the storage driver.
 */
@Injectable()
export class FileResponder {
  constructor(@Inject(FILE_STORAGE) private readonly storage: FileStorage) {}

  async send(
    file: ProductFile,
    req: FastifyRequest,
    res: FastifyReply,
    options: { cacheControl?: string } = {},
  ): Promise<void> {
    if (file.kind !== 'upload' || !file.storageKey) throw new NotFoundError();
    const filename = downloadName(file);
    const size = file.sizeBytes;
    const contentType = file.contentType ?? 'application/octet-stream';
    const disposition = INLINE.test(contentType) ? 'inline' : 'attachment';
    res.headers({
      'Content-Type': contentType,
      'Accept-Ranges': 'bytes',
      'Content-Disposition': `${disposition}; filename*=UTF-8''${encodeURIComponent(filename)}`,
      'Last-Modified': file.createdAt.toUTCString(),
      'Cache-Control': options.cacheControl ?? 'private, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });

    const range = parseByteRange(req.headers.range, size);
    if (range.kind === 'unsatisfiable') {
      void res.status(416).header('Content-Range', `bytes */${size}`).send();
      return;
    }
    const partial = range.kind === 'partial' ? range.range : undefined;
    if (partial) res.status(206).header('Content-Range', `bytes ${partial.start}-${partial.end}/${size}`);
    res.header('Content-Length', String(partial ? partial.end - partial.start + 1 : size));
    if (req.method === 'HEAD') {
      void res.send();
      return;
    }

    let body;
    try {
      body = await this.storage.open(file.storageKey, partial);
    } catch (error) {
      if (error instanceof StoredObjectMissing) throw new NotFoundError();
      throw error;
    }
    // Fastify streams it and destroys it if the client goes away mid-download.
    void res.send(body);
  }
}

/**
 * The bytes a `Range` header asks for when it continues a download rather than starting one (a
 * single range that starts past byte 0, as the file of `size` bytes is served), or null when it
 * starts one (no range, one from byte 0, a suffix, several). A range past the end asks for none.
 */
export function continuedBytes(header: string | undefined, size: number): number | null {
  if (!header) return null;
  const match = /^bytes=(\d+)-(\d*)$/.exec(header.trim());
  if (match === null || Number(match[1]) === 0) return null;
  const range = parseByteRange(header, size);
  if (range.kind === 'unsatisfiable') return 0;
  return range.kind === 'partial' ? range.range.end - range.range.start + 1 : null;
}
