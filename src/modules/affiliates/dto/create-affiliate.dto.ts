import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsNumber, IsString, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { Trim } from '../../../common/http/transforms';
import { IsEmailAddress } from '../../../common/http/email-address';
import { hasAtMostTwoDecimals } from '../../../common/money';

export class CreateAffiliateDto {
  @ApiProperty({ example: 'Joana Mucavele', maxLength: 255 })
  @Trim()
  @IsString({ message: 'name must be a string.' })
  @IsNotEmpty({ message: 'name is required.' })
  @MaxLength(255, { message: 'name must be at most 255 characters.' })
  name: string;

  @ApiProperty({ example: 'joana@example.com', format: 'email', maxLength: 255 })
  @Trim()
  @IsEmailAddress({ message: 'email must be an email.' })
  @MaxLength(255, { message: 'email must be at most 255 characters.' })
  email: string;

  @ApiProperty({ example: 12.5, minimum: 0, maximum: 100, description: 'Percent of the sale, at most two decimals.' })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'commission_percent must be a number.' })
  @Min(0, { message: 'commission_percent must be at least 0.' })
  @Max(100, { message: 'commission_percent must be at most 100.' })
  @ValidateBy({
    name: 'atMostTwoDecimals',
    validator: {
      validate: (value: unknown) => typeof value === 'number' && hasAtMostTwoDecimals(value),
      defaultMessage: () => 'commission_percent must have at most two decimals.',
    },
  })
  commission_percent: number;
}
