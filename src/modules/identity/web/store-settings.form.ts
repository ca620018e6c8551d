import { IsNotEmpty, IsOptional, IsString, IsUrl, Matches, MaxLength, ValidateBy } from 'class-validator';
import { isCurrencyCode } from '../sellers/currencies';

const httpUrl = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

/**
 * Settings → Store (README, *Operating it*): what the form may hold, with the API's wording
 * (`<field> is required.`, `<field> must be …`). The contact number and the logo follow the
 * product's `contact_number` and `image_url` rules; the currency is an ISO 4217 code (the page lets
 * a store keep a code it had before that rule).
 */
export class StoreSettingsForm {
  @IsString({ message: 'name must be a string.' })
  @IsNotEmpty({ message: 'name is required.' })
  @MaxLength(255, { message: 'name must be at most 255 characters.' })
  name: string;

  @IsString({ message: 'brand must be a string.' })
  @IsNotEmpty({ message: 'brand is required.' })
  @MaxLength(255, { message: 'brand must be at most 255 characters.' })
  brand: string;

  @IsOptional()
  @IsString({ message: 'contact_number must be a string.' })
  @Matches(/^\+?[0-9][0-9 ()-]{5,30}$/, { message: 'contact_number must be a phone number.' })
  contact_number?: string;

  @IsOptional()
  @IsUrl(httpUrl, { message: 'logo_url must be an http(s) URL.' })
  @MaxLength(2048, { message: 'logo_url must be at most 2048 characters.' })
  logo_url?: string;

  @IsString({ message: 'currency must be a string.' })
  @IsNotEmpty({ message: 'currency is required.' })
  @ValidateBy(
    { name: 'isCurrencyCode', validator: { validate: (value) => typeof value === 'string' && isCurrencyCode(value) } },
    { message: 'currency must be an ISO 4217 code, for example MZN, USD or EUR.' },
  )
  currency: string;
}
