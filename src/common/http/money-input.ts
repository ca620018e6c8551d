import { applyDecorators } from '@nestjs/common';
import { IsNumber, ValidateBy } from 'class-validator';
import { hasAtMostTwoDecimals } from '../money';

/**
 * A money field of a body: a JSON number (`<field> must be a number.` alone for any other type),
 * then at most two decimals (`<field> must have at most two decimals.`); its range is the DTO's.
 */
export const IsMoney = (field: string): PropertyDecorator =>
  applyDecorators(
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: `${field} must be a number.` }),
    ValidateBy({
      name: 'atMostTwoDecimals',
      validator: {
        validate: (value: unknown) => typeof value === 'number' && hasAtMostTwoDecimals(value),
        defaultMessage: () => `${field} must have at most two decimals.`,
      },
    }),
  );
