import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Validate, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { MAX_REPORT_DAYS } from '../sales-report';

/** A calendar date `YYYY-MM-DD` that exists (no 2026-02-30). */
@ValidatorConstraint({ name: 'calendarDate' })
class CalendarDate implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
    const date = new Date(`${value}T00:00:00.000Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }

  defaultMessage(): string {
    return '$property must be a date in the form YYYY-MM-DD.';
  }
}

export class SalesReportQueryDto {
  // No example: "Try it out" then leaves the dates empty, and the report covers the last 30 days,
  // where the demo store's sales are (a fixed example range would show it empty).
  @ApiPropertyOptional({
    format: 'date',
    description: 'First UTC day of the report, as `2026-01-01` (default: 29 days before `to`).',
  })
  @IsOptional()
  @IsString({ message: 'from must be a date in the form YYYY-MM-DD.' })
  @Validate(CalendarDate)
  from?: string;

  @ApiPropertyOptional({
    format: 'date',
    description: `Last UTC day of the report, included, as \`2026-01-30\` (default: today). The report covers at most ${MAX_REPORT_DAYS} days, both ends counted: \`to\` at most ${MAX_REPORT_DAYS - 1} days after \`from\`.`,
  })
  @IsOptional()
  @IsString({ message: 'to must be a date in the form YYYY-MM-DD.' })
  @Validate(CalendarDate)
  to?: string;
}

export class SalesReportDayDto {
  @ApiProperty({ format: 'date', example: '2026-01-30' }) date: string;
  @ApiProperty({ example: 1500, description: 'Orders approved that day (their amounts).' }) gross: number;
  @ApiProperty({ example: 0, description: 'Refunds made that day.' }) refunded: number;
  @ApiProperty({ type: 'integer', example: 3, description: 'Orders approved that day.' }) orders_paid: number;
}

export class SalesReportDto {
  @ApiProperty({ example: 'MZN', description: "The store's currency: every amount is in it." }) currency: string;
  @ApiProperty({ format: 'date', example: '2026-01-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2026-01-30' }) to: string;
  @ApiProperty({
    example: 4500,
    description: 'Sum of the orders approved in the range, whatever happened to them later.',
  })
  gross: number;
  @ApiProperty({ example: 300, description: 'Sum of the refunds made in the range.' }) refunded: number;
  @ApiProperty({ example: 4200, description: '`gross` − `refunded`.' }) net: number;
  @ApiProperty({ type: 'integer', example: 9, description: 'Orders approved in the range.' }) orders_paid: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Orders refunded in the range.' }) orders_refunded: number;
  @ApiProperty({ type: 'integer', example: 2, description: 'Subscriptions that started in the range.' })
  new_subscriptions: number;
  @ApiProperty({ type: 'integer', example: 5, description: 'Subscriptions active now.' })
  active_subscriptions: number;
  @ApiProperty({
    example: 1500,
    description:
      "Monthly recurring revenue: the active subscriptions' plan prices normalised to 30 days " +
      '(a monthly plan counts its price, a yearly one a twelfth, a weekly one 30/7), rounded to the cent.',
  })
  mrr: number;
  @ApiProperty({ type: [SalesReportDayDto], description: 'Every UTC day of the range, oldest first.' })
  days: SalesReportDayDto[];
}

export class SalesReportEnvelopeDto {
  @ApiProperty({ example: 'success' }) status: 'success';
  @ApiProperty({ type: SalesReportDto }) report: SalesReportDto;
}
