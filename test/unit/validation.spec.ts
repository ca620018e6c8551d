import { ArgumentMetadata } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsEmail, IsNumber, IsOptional, IsString, IsUrl, MaxLength, Min, ValidateNested } from 'class-validator';
import { ValidationError } from '../../src/common/errors/app-error';
import { toErrorResponse } from '../../src/common/http/exception.filter';
import { createValidationPipe } from '../../src/common/http/validation.pipe';
import { PaginationQueryDto } from '../../src/common/pagination/pagination';

class CustomerDto {
  @IsString() name: string;
  @IsEmail() email: string;
}

class OrderDto {
  @IsNumber() @Min(10) amount: number;
  @ValidateNested() @Type(() => CustomerDto) customer: CustomerDto;
}

class LinksDto {
  @IsOptional()
  @IsUrl({}, { message: 'return_url must be a valid http(s) URL.' })
  @MaxLength(2048, { message: 'return_url must be at most 2048 characters.' })
  return_url?: string;
}

const meta = (metatype: ArgumentMetadata['metatype'], type: ArgumentMetadata['type'] = 'body'): ArgumentMetadata => ({
  type,
  metatype,
});

async function failure(value: unknown, metatype: ArgumentMetadata['metatype'], type?: ArgumentMetadata['type']) {
  try {
    await createValidationPipe().transform(value, meta(metatype, type));
  } catch (error) {
    return toErrorResponse(error);
  }
  throw new Error('expected a validation failure');
}

describe('validation pipe', () => {
  it('maps nested fields to dotted paths in a 422 Validation failed.', async () => {
    const res = await failure({ amount: 5, customer: { name: 'A', email: 'nope' } }, OrderDto);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Validation failed.');
    expect(Object.keys(res.body.errors as object).sort()).toEqual(['amount', 'customer.email']);
    expect((res.body.errors as Record<string, string[]>)['customer.email'][0]).toEqual(expect.any(String));
  });

  it('a missing field is one message, "<field> is required."; the other rules only when it is present', async () => {
    const missing = await failure({ customer: { name: 'A' } }, OrderDto);
    expect(missing.body.errors).toEqual({
      amount: ['amount is required.'],
      'customer.email': ['customer.email is required.'],
    });
    const nulls = await failure({ amount: null, customer: null }, OrderDto);
    expect(nulls.body.errors).toEqual({ amount: ['amount is required.'], customer: ['customer is required.'] });
    // A value of the wrong type says only its type; one of the right type, every rule it breaks.
    const wrongType = await failure({ amount: 'x', customer: { name: 'A', email: 'a@b.co' } }, OrderDto);
    expect((wrongType.body.errors as Record<string, string[]>).amount).toEqual([
      expect.stringMatching(/^amount must be a number/),
    ]);
    const notObject = await failure({ amount: 20, customer: 'Ana' }, OrderDto);
    expect(notObject.body.errors).toEqual({ customer: ['customer must be an object.'] });
    const low = await failure({ amount: 5, customer: { name: 'A', email: 'a@b.co' } }, OrderDto);
    expect((low.body.errors as Record<string, string[]>).amount).toEqual([
      expect.stringMatching(/^amount must not be less than 10/),
    ]);
  });

  it('a string-only field (URL, email, length rules) given another type is told that alone', async () => {
    for (const value of [5, true, {}, []]) {
      const res = await failure({ return_url: value }, LinksDto);
      expect(res.body.errors).toEqual({ return_url: ['return_url must be a string.'] });
    }
    const email = await failure({ amount: 20, customer: { name: 'A', email: 5 } }, OrderDto);
    expect(email.body.errors).toEqual({ 'customer.email': ['customer.email must be a string.'] });
    // A string still gets every rule it breaks.
    const long = await failure({ return_url: `ftp://${'a'.repeat(2050)}` }, LinksDto);
    expect((long.body.errors as Record<string, string[]>).return_url).toHaveLength(2);
  });

  it('drops unknown properties', async () => {
    const out = await createValidationPipe().transform(
      { amount: 10, customer: { name: 'A', email: 'a@b.co' }, x: 1 },
      meta(OrderDto),
    );
    expect(out).toBeInstanceOf(OrderDto);
    expect(out.x).toBeUndefined();
  });

  it.each([
    [{ page: '0' }, 'page'],
    [{ page: 'abc' }, 'page'],
    [{ per_page: '101' }, 'per_page'],
    [{ per_page: '0' }, 'per_page'],
    [{ per_page: '2.5' }, 'per_page'],
    [{ per_page: '1e1' }, 'per_page'],
    [{ page: ' 1' }, 'page'],
    [{ page: '' }, 'page'],
    [{ page: '0x10' }, 'page'],
  ])('rejects pagination %j on %s', async (query, field) => {
    const res = await failure(query, PaginationQueryDto, 'query');
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors as object)).toEqual([field]);
    const value = (query as Record<string, string>)[field];
    if (!/^-?\d+$/.test(value)) expect(res.body.errors).toEqual({ [field]: [`${field} must be an integer.`] });
  });

  it('defaults page to 1 and per_page to 15', async () => {
    const out = await createValidationPipe().transform({}, meta(PaginationQueryDto, 'query'));
    expect(out).toMatchObject({ page: 1, per_page: 15 });
  });

  it('renders a ValidationError built by a service the same way', () => {
    const res = toErrorResponse(ValidationError.field('coupon_code', 'Coupon has expired.'));
    expect(res).toMatchObject({
      status: 422,
      body: { status: 'error', message: 'Validation failed.', errors: { coupon_code: ['Coupon has expired.'] } },
    });
  });

  it('never leaks the message of an unknown error', () => {
    const res = toErrorResponse(new Error('relation "orders" does not exist'));
    expect(res).toEqual({ status: 500, body: { status: 'error', message: 'Internal server error.' }, headers: {} });
  });
});
