import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsFQDN } from 'class-validator';

const normalized = (value: unknown) =>
  Array.isArray(value)
    ? [...new Set(value.map((d) => (typeof d === 'string' ? d.trim().toLowerCase().replace(/^@/, '') : d)))]
    : value;

/** `PUT /v1/blocked-domains`: the store's whole list. */
export class ReplaceBlockedDomainsDto {
  @ApiProperty({
    type: [String],
    maxItems: 100,
    example: ['spam.example', 'throwaway.example'],
    description: 'Email domains to refuse orders from; `@` and case are ignored, repeats are merged.',
  })
  @Transform(({ value }) => normalized(value))
  @IsArray({ message: 'domains must be an array of domain names.' })
  @ArrayMaxSize(100, { message: 'domains must have at most 100 entries.' })
  @IsFQDN({}, { each: true, message: 'domains must be domain names (example.com).' })
  domains: string[];
}

export class BlockedDomainsResponseDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: [String], example: ['spam.example', 'throwaway.example'] }) domains: string[];
}
