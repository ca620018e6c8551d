import { Controller, Get, Head, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../../common/errors/app-error';
import { Public } from '../../identity';
import { downloadName } from '../files/product-file.mapper';
import { ProductFilesService } from '../files/product-files.service';
import { FILE_STORAGE, FileStorage, STORAGE_KEY_PATTERN, StoredObjectMissing } from '../files/storage/file-storage';
import { Inject } from '@nestjs/common';
import { parseByteRange } from './byte-range';

/** Types a browser may show in place; everything else downloads. */
const INLINE = /^(image\/(png|jpeg|gif|webp)|audio\/|video\/|application\/pdf|text\/plain)/;

/**
 * `{cdn_url}/<key>/<filename>`: the unguessable key is the capability, so no token is asked. Files
 * are served with their type, in ranges (media players and resumable downloads), and sandboxed so
 * an uploaded page cannot run script on this origin.
 */
@ApiExcludeController()
@Controller()
export class CdnController {
  constructor(
    private readonly files: ProductFilesService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /**
   * Declared before the GET: Fastify then uses it instead of its automatic HEAD route, which would
   * answer `Content-Length: 0`.
   */
  @Head(':key/:filename')
  @Public()
  head(
    @Param('key') key: string,
    @Param('filename') filename: string,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ): Promise<void> {
    return this.serve(key, filename, req, res);
  }

  @Get(':key/:filename')
  @Public()
  download(
    @Param('key') key: string,
    @Param('filename') filename: string,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ): Promise<void> {
    return this.serve(key, filename, req, res);
  }

  private async serve(key: string, filename: string, req: FastifyRequest, res: FastifyReply): Promise<void> {
    if (!STORAGE_KEY_PATTERN.test(key)) throw new NotFoundError();
    const file = await this.files.findDownload(key);
    if (!file || downloadName(file) !== filename) throw new NotFoundError();

    const size = file.sizeBytes;
    const contentType = file.contentType ?? 'application/octet-stream';
    const disposition = INLINE.test(contentType) ? 'inline' : 'attachment';
    res.headers({
      'Content-Type': contentType,
      'Accept-Ranges': 'bytes',
      'Content-Disposition': `${disposition}; filename*=UTF-8''${encodeURIComponent(filename)}`,
      'Last-Modified': file.createdAt.toUTCString(),
      'Cache-Control': 'private, max-age=3600',
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
      body = await this.storage.open(key, partial);
    } catch (error) {
      if (error instanceof StoredObjectMissing) throw new NotFoundError();
      throw error;
    }
    // Fastify streams it and destroys it if the client goes away mid-download.
    void res.send(body);
  }
}
