import { Body, Controller, Delete, Get, Param, Post, UseInterceptors } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ApiIdParam, ApiValidationFailed } from '../../../common/http/api-docs';
import { AcceptsBody } from '../../../common/http/body-types';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { IntIdPipe } from '../../../common/http/path-id';
import { CurrentPrincipal, type Principal, RequireScopes } from '../../identity';
import { ApiCatalogId } from '../catalog-api.decorators';
import {
  CreateProductFileDto,
  ProductFileCreatedResponseDto,
  ProductFileDeletedResponseDto,
  ProductFileListResponseDto,
} from './dto/product-file.dto';
import { ProductFilesService } from './product-files.service';
import { FileUploadInterceptor, StoredUpload, type UploadedFile } from './file-upload.interceptor';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { ResourceFirst } from '../../../common/http/resource-first';
import { ProductsService } from '../products/products.service';

@ApiTags('Files')
@Controller('v1/products/:id/files')
export class ProductFilesController {
  constructor(private readonly files: ProductFilesService) {}

  @Post()
  @ResourceFirst(ProductsService, (products, storeId, ref) => products.findForStore(storeId, ref))
  @Idempotent()
  @RequireScopes('files.write')
  @UseInterceptors(FileUploadInterceptor)
  @ApiOperation({
    summary: 'Upload a file (multipart field `file`) or add an external link (JSON `{name, link}`)',
    description:
      'Uploads are streamed to storage and served under `{cdn_url}` at an unguessable path. Size limit: `MAX_FILE_MB`. ' +
      'A product deleted while its file is being added is a 404, and nothing is kept (no file, no stored upload).',
  })
  @ApiCatalogId('product')
  @AcceptsBody('multipart/form-data', 'application/json')
  @ApiBody({
    type: CreateProductFileDto,
    examples: {
      link: { value: { name: 'Aula 1', link: 'https://videos.example.com/aula-1' } },
    },
  })
  @ApiCreatedResponse({ type: ProductFileCreatedResponseDto })
  @ApiValidationFailed()
  @ApiBadRequestResponse({ type: ErrorResponseDto, example: { status: 'error', message: 'Malformed multipart body.' } })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto, example: { status: 'error', message: 'Payload too large.' } })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() dto: CreateProductFileDto,
    @StoredUpload() upload?: UploadedFile,
  ): Promise<ProductFileCreatedResponseDto> {
    const file = await this.files.add(principal.storeId, id, dto, upload);
    return { status: 'success', message: 'File added successfully.', file: this.files.toDto(file) };
  }

  @Get()
  @RequireScopes('files.read')
  @ApiOperation({ summary: 'List the files of a product' })
  @ApiCatalogId('product')
  @ApiOkResponse({ type: ProductFileListResponseDto })
  async list(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ProductFileListResponseDto> {
    const files = await this.files.list(principal.storeId, id);
    return { status: 'success', files: files.map((file) => this.files.toDto(file)) };
  }

  @Delete(':file_id')
  @RequireScopes('files.write')
  @ApiOperation({ summary: 'Delete a file of a product (an upload is removed from storage)' })
  @ApiCatalogId('product')
  @ApiIdParam('file_id')
  @ApiOkResponse({ type: ProductFileDeletedResponseDto })
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Param('file_id', IntIdPipe) fileId: number,
  ): Promise<ProductFileDeletedResponseDto> {
    const { productPid, file } = await this.files.delete(principal.storeId, id, fileId);
    return {
      status: 'success',
      message: 'File deleted successfully.',
      data: { product_pid: productPid, file_id: file.id },
    };
  }
}
