import { ApiProperty } from '@nestjs/swagger';
import { ApiTimestamp } from '../../../common/http/api-docs';
import { PageEnvelopeDto } from '../../../common/pagination/pagination';

export class AffiliateDto {
  @ApiProperty({ type: 'integer', example: 7 }) id: number;
  @ApiProperty({ example: 'Joana Mucavele' }) name: string;
  @ApiProperty({ example: 'joana@example.com' }) email: string;
  @ApiProperty({ example: 12.5, description: 'Percent of each sale.' }) commission_percent: number;
  @ApiTimestamp({ example: '2026-01-15T10:20:30.123000Z' }) created_at: string;
  @ApiTimestamp({ example: '2026-01-15T10:20:30.123000Z' }) updated_at: string;
}

export class AffiliateResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: AffiliateDto }) affiliate: AffiliateDto;
}

export class CreateAffiliateResponseDto extends AffiliateResponseDto {
  @ApiProperty({ example: 'Affiliate created.' }) message: string;
}

export class AffiliateListResponseDto extends PageEnvelopeDto {
  @ApiProperty({ type: [AffiliateDto] }) affiliates: AffiliateDto[];
}

export class AffiliateDeletedResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ example: 'Affiliate deleted.' }) message: string;
}
