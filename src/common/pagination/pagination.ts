import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

/**
 * A query value written as an integer in decimal digits (an optional `-`), as a number; anything
 * else (`1e1`, ` 1`, `0x10`, an empty value) is left as it came, so the integer rule refuses it.
 */
const decimalInteger = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value;

/** `page` (1+, default 1) and `per_page` (1–100, default 15); out of range is 422 (the OpenAPI description). */
export class PaginationQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1, example: 1 })
  @Transform(decimalInteger)
  @IsInt({ message: 'page must be an integer.' })
  @Min(1, { message: 'page must be at least 1.' })
  page: number = 1;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 15, example: 15 })
  @Transform(decimalInteger)
  @IsInt({ message: 'per_page must be an integer.' })
  @Min(1, { message: 'per_page must be at least 1.' })
  @Max(100, { message: 'per_page must be at most 100.' })
  per_page: number = 15;
}

/** A list of resources that are `active` or `inactive` (discounts, webhooks): the contract's `status` filter. */
export class ActiveStatusPageQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ enum: ['active', 'inactive'], example: 'active', description: 'Only those of this status.' })
  @IsOptional()
  @IsIn(['active', 'inactive'], { message: 'status must be active or inactive.' })
  status?: 'active' | 'inactive';
}

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

export function pageRequest(query: PaginationQueryDto): PageRequest {
  return { page: query.page, perPage: query.per_page, offset: (query.page - 1) * query.per_page };
}

/** OpenAPI for the list envelope; each list response adds its items under its own key. */
export class PageEnvelopeDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: 'integer', example: 1 }) page: number;
  @ApiProperty({ type: 'integer', example: 15 }) per_page: number;
  @ApiProperty({ type: 'integer', example: 1 }) last_page: number;
  @ApiProperty({ type: 'integer', example: 1 }) total: number;
}

/**
 * A list's total when its page already shows it, so the count query can be skipped: a short page
 * is the last one (total = offset + rows) and an empty first page means none. Null: count.
 */
export function knownTotal(rowsOnPage: number, page: PageRequest): number | null {
  if (rowsOnPage > 0 && rowsOnPage < page.perPage) return page.offset + rowsOnPage;
  if (rowsOnPage === 0 && page.offset === 0) return 0;
  return null;
}

export type PaginatedEnvelope<K extends string, T> = {
  status: 'success';
  page: number;
  per_page: number;
  last_page: number;
  total: number;
} & { [key in K]: T[] };

/** The list envelope (the OpenAPI description); `last_page` = max(1, ceil(total / per_page)). */
export function paginated<K extends string, T, E extends Record<string, unknown> = Record<never, never>>(
  key: K,
  items: T[],
  total: number,
  page: PageRequest,
  extra?: E,
): PaginatedEnvelope<K, T> & E {
  return {
    status: 'success',
    page: page.page,
    per_page: page.perPage,
    last_page: Math.max(1, Math.ceil(total / page.perPage)),
    total,
    ...extra,
    [key]: items,
  } as PaginatedEnvelope<K, T> & E;
}
