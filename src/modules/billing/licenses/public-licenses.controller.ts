import { applyDecorators, Body, Controller, HttpCode, Post, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { ApiNotFound, RATE_LIMITED, RATE_LIMITED_PER_IP, RETRY_AFTER_HEADER } from '../../../common/http/api-docs';
import { Public } from '../../identity';
import {
  ActivatedLicenseDto,
  ActivateLicenseDto,
  DeactivatedLicenseDto,
  DeactivateLicenseDto,
  ValidatedLicenseDto,
  ValidateLicenseDto,
} from './dto/license.dto';
import { LicenseRateLimitGuard } from './license-rate-limit.guard';
import { LICENSE_NOT_FOUND, LicensesService } from './licenses.service';

const ApiLicenseNotFound = () =>
  ApiNotFound('`License key not found.` — the same answer for any key that was not issued.', LICENSE_NOT_FOUND);

/** The 429 of the per-IP limit; every counted answer carries its `RateLimit-*` headers. */
const ApiPerIpLimit = () =>
  applyDecorators(
    SetMetadata(RATE_LIMITED, true),
    SetMetadata(RATE_LIMITED_PER_IP, true),
    ApiResponse({
      status: 429,
      description: '`Too many requests.` — more than 60 requests a minute from this IP.',
      type: ErrorResponseDto,
      example: { status: 'error', message: 'Too many requests.' },
      headers: RETRY_AFTER_HEADER,
    }),
  );

/**
 * The license API the seller's software calls: no bearer token, the key is the
 * credential; 60 requests a minute per IP. An unknown key, or anything that is not of a key's form,
 * is the same 404, so an answer never says how close a guess was.
 */
@ApiTags('Licenses')
@Public()
@UseGuards(LicenseRateLimitGuard)
@Controller('v1/licenses')
export class PublicLicensesController {
  constructor(private readonly licenses: LicensesService) {}

  @Post('activate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Activate an instance of the software with a license key (public: the key is the credential)',
  })
  @ApiOkResponse({ type: ActivatedLicenseDto })
  @ApiLicenseNotFound()
  @ApiResponse({
    status: 422,
    description:
      '`Activation limit reached.`, `License key is disabled.`, `License key has expired.`, or `Validation failed.` with `errors`.',
    type: ErrorResponseDto,
    example: { status: 'error', message: 'Activation limit reached.' },
  })
  @ApiPerIpLimit()
  async activate(@Body() body: ActivateLicenseDto): Promise<ActivatedLicenseDto> {
    const { license, instance } = await this.licenses.activate(body.license_key, body.instance_name);
    return { status: 'success', license, instance };
  }

  @Post('validate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Check a license key (and optionally one activated instance)' })
  @ApiOkResponse({ type: ValidatedLicenseDto })
  @ApiLicenseNotFound()
  @ApiResponse({
    status: 422,
    description: '`Validation failed.` with `errors`.',
    type: ErrorResponseDto,
    example: { status: 'error', message: 'Validation failed.', errors: { license_key: ['license_key is required.'] } },
  })
  @ApiPerIpLimit()
  async validate(@Body() body: ValidateLicenseDto): Promise<ValidatedLicenseDto> {
    const result = await this.licenses.validate(body.license_key, body.instance_id);
    return { status: 'success', ...result };
  }

  @Post('deactivate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Deactivate an instance, freeing its activation' })
  @ApiOkResponse({ type: DeactivatedLicenseDto })
  @ApiNotFound(
    '`License key not found.` for a key that was not issued; `Resource not found.` for an instance the key does not have.',
    LICENSE_NOT_FOUND,
  )
  @ApiResponse({
    status: 422,
    description: '`Validation failed.` with `errors`.',
    type: ErrorResponseDto,
    example: { status: 'error', message: 'Validation failed.', errors: { instance_id: ['instance_id is required.'] } },
  })
  @ApiPerIpLimit()
  async deactivate(@Body() body: DeactivateLicenseDto): Promise<DeactivatedLicenseDto> {
    return { status: 'success', ...(await this.licenses.deactivate(body.license_key, body.instance_id)) };
  }
}
