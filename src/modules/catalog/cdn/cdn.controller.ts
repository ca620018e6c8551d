import { Controller, Get, Head, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../../common/errors/app-error';
import { Public } from '../../identity';
import { downloadName } from '../files/product-file.mapper';
import { ProductFilesService } from '../files/product-files.service';
import { STORAGE_KEY_PATTERN } from '../files/storage/file-storage';
import { FileResponder } from './file-responder';

/**
 * `{cdn_url}/<key>/<filename>`: the unguessable key is the capability, so no token is asked. Files
 * are sent by {@link FileResponder}. Buyers get counted links under `{pay_url}/download/` instead;
 * this address stays the seller's (API, dashboard).
 */
@ApiExcludeController()
@Controller()
export class CdnController {
  constructor(
    private readonly files: ProductFilesService,
    private readonly responder: FileResponder,
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
    await this.responder.send(file, req, res);
  }
}
