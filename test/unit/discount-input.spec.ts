import {
  codeKey,
  codeProblem,
  normaliseStatus,
  normaliseType,
  parseDateTime,
} from '../../src/modules/discounts/discount-input';
import { toDiscountDto } from '../../src/modules/discounts/discount.mapper';
import { Discount } from '../../src/modules/discounts/discount.entity';

describe('discount input aliases', () => {
  it.each([
    ['fixed', 'fixed'],
    ['amount', 'fixed'],
    ['percent', 'percent'],
    ['percentage', 'percent'],
    ['percentual', 'percent'],
    ['%', 'percent'],
    [' FIXED ', 'fixed'],
    ['bogo', undefined],
    ['', undefined],
  ])('type %j → %s', (input, output) => {
    expect(normaliseType(input)).toBe(output);
  });

  it.each([
    ['active', 'active'],
    ['enabled', 'active'],
    ['published', 'active'],
    ['inactive', 'inactive'],
    ['disabled', 'inactive'],
    ['unpublished', 'inactive'],
    ['PUBLISHED', 'active'],
    ['paused', undefined],
  ])('status %j → %s', (input, output) => {
    expect(normaliseStatus(input)).toBe(output);
  });
});

describe('codes', () => {
  it('compares codes ignoring case and surrounding spaces', () => {
    expect(codeKey(' Save10 ')).toBe('save10');
  });

  it.each([
    ['SAVE10', null],
    ['black-friday_2026', null],
    ['ÉTÉ2026', null],
    ['', 'code is required.'],
    ['2026', 'code must contain at least one letter, so it cannot be mistaken for an id.'],
    ['A B', 'code may contain only letters, digits, hyphens and underscores.'],
    ['A'.repeat(64), null],
    ['A'.repeat(65), 'code must be at most 64 characters.'],
  ])('%j → %s', (code, problem) => {
    expect(codeProblem(code)).toBe(problem);
  });
});

describe('parseDateTime', () => {
  it.each([
    ['2026-12-31T23:59:59Z', '2026-12-31T23:59:59.000Z'],
    ['2026-12-31T23:59:59.123456Z', '2026-12-31T23:59:59.123Z'],
    ['2026-12-31T23:59', '2026-12-31T23:59:00.000Z'],
    ['2026-12-31 23:59:59', '2026-12-31T23:59:59.000Z'],
    ['2026-12-31T23:59:59+02:00', '2026-12-31T21:59:59.000Z'],
    ['2026-12-31T23:59:59-0130', '2027-01-01T01:29:59.000Z'],
  ])('%j → %s (no offset = UTC)', (input, iso) => {
    expect(parseDateTime(input)?.toISOString()).toBe(iso);
  });

  it.each([
    '2026-12-31',
    'tomorrow',
    '2026-02-30T00:00:00Z',
    '2026-12-31T24:00:00Z',
    '2026-13-01T00:00:00Z',
    '31/12/2026 10:00',
  ])('refuses %j', (input) => {
    expect(parseDateTime(input)).toBeNull();
  });
});

describe('toDiscountDto', () => {
  const base = Object.assign(new Discount(), {
    id: 3,
    storeId: 1,
    code: 'Save',
    codeKey: 'save',
    type: 'percent',
    value: 1250,
    status: 'active',
    productIds: [9, 2],
    usesLimit: 10,
    usedCount: 4,
    singleUse: false,
    neverExpires: false,
    expiresAt: new Date('2026-12-31T23:59:59.000Z'),
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
    updatedAt: new Date('2026-01-02T00:00:00.000Z'),
  } satisfies Partial<Discount>);

  it('shows the discount exactly as the contract shapes it', () => {
    expect(toDiscountDto(base)).toEqual({
      id: 3,
      code: 'Save',
      type: 'percent',
      value: 12.5,
      status: 'active',
      product_ids: [2, 9],
      uses_limit: 10,
      used_count: 4,
      available_uses: 6,
      single_use: false,
      never_expires: false,
      expires_at: '2026-12-31T23:59:59.000000Z',
      created_at: '2026-01-01T00:00:00.000000Z',
      updated_at: '2026-01-02T00:00:00.000000Z',
    });
  });

  it('null available_uses without a limit; never_expires hides a stale date', () => {
    const dto = toDiscountDto(Object.assign(new Discount(), base, { usesLimit: null, neverExpires: true }));
    expect(dto).toMatchObject({ uses_limit: null, available_uses: null, never_expires: true, expires_at: null });
  });
});
