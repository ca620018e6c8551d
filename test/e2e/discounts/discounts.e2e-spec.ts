import { Scope } from '../../../src/modules/identity/scopes';
import { createSeller, TestSeller } from '../../utils/auth';
import { sentWhileDeleting } from '../../utils/product-deletion';
import { createTestApp, TestApp } from '../../utils/test-app';
import { createDiscount, insertProduct } from './fixtures';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('Discounts API', () => {
  let t: TestApp;
  let seller: TestSeller;
  let other: TestSeller;
  let n = 0;
  /** A fresh code per test, so tests do not collide on the per-store uniqueness. */
  const code = (prefix = 'CODE') => `${prefix}${++n}`;
  const inAnHour = () => new Date(t.clock.now().getTime() + 3_600_000).toISOString();

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createSeller(t);
    other = await createSeller(t);
  });
  afterAll(() => t.close());

  const post = (body: Record<string, unknown>, who = seller) => t.http.post('/v1/discounts').set(who.auth).send(body);

  describe('POST /v1/discounts', () => {
    it("creates a discount with the defaults and answers exactly the contract's discount", async () => {
      const res = await post({ code: 'WELCOME', type: 'fixed', value: 25.5 }).expect(201);
      expect(res.body).toEqual({
        status: 'success',
        message: 'Discount created successfully.',
        discount: {
          id: expect.any(Number),
          code: 'WELCOME',
          type: 'fixed',
          value: 25.5,
          status: 'active',
          product_ids: [],
          uses_limit: null,
          used_count: 0,
          available_uses: null,
          single_use: false,
          never_expires: true,
          expires_at: null,
          created_at: expect.stringMatching(TIMESTAMP),
          updated_at: expect.stringMatching(TIMESTAMP),
        },
      });
    });

    it('stores every optional field', async () => {
      const productA = await insertProduct(t, seller.storeId);
      const productB = await insertProduct(t, seller.storeId);
      const expires = new Date(t.clock.now().getTime() + 86_400_000);
      const res = await post({
        code: 'Summer-Sale_2',
        type: 'percent',
        value: 12.5,
        status: 'inactive',
        product_ids: [productB, productA, productB],
        uses_limit: 10,
        single_use: true,
        expires_at: expires.toISOString(),
      }).expect(201);
      expect(res.body.discount).toMatchObject({
        code: 'Summer-Sale_2',
        type: 'percent',
        value: 12.5,
        status: 'inactive',
        product_ids: [productA, productB].sort((a, b) => a - b),
        uses_limit: 10,
        used_count: 0,
        available_uses: 10,
        single_use: true,
        never_expires: false,
        expires_at: expires.toISOString().replace('Z', '000Z'),
      });
    });

    it.each([
      ['fixed', 'fixed'],
      ['amount', 'fixed'],
      ['percent', 'percent'],
      ['percentage', 'percent'],
      ['percentual', 'percent'],
      ['%', 'percent'],
      ['Percentage', 'percent'],
      [' AMOUNT ', 'fixed'],
    ])('accepts type %j and shows %s', async (input, output) => {
      const res = await post({ code: code(), type: input, value: 5 }).expect(201);
      expect(res.body.discount.type).toBe(output);
      const again = await t.http.get(`/v1/discounts/${res.body.discount.id}`).set(seller.auth).expect(200);
      expect(again.body.discount.type).toBe(output);
    });

    it.each([
      ['active', 'active'],
      ['enabled', 'active'],
      ['published', 'active'],
      ['inactive', 'inactive'],
      ['disabled', 'inactive'],
      ['unpublished', 'inactive'],
      ['Enabled', 'active'],
    ])('accepts status %j and shows %s', async (input, output) => {
      const res = await post({ code: code(), type: 'fixed', value: 5, status: input }).expect(201);
      expect(res.body.discount.status).toBe(output);
      const again = await t.http.get(`/v1/discounts/${res.body.discount.id}`).set(seller.auth).expect(200);
      expect(again.body.discount.status).toBe(output);
    });

    it('accepts the minimums: value 0.01, uses_limit 1, a percent of exactly 100', async () => {
      const a = await post({ code: code(), type: 'fixed', value: 0.01, uses_limit: 1 }).expect(201);
      expect(a.body.discount).toMatchObject({ value: 0.01, uses_limit: 1, available_uses: 1 });
      const b = await post({ code: code(), type: '%', value: 100 }).expect(201);
      expect(b.body.discount).toMatchObject({ type: 'percent', value: 100 });
    });

    it('accepts a fixed value above 100', async () => {
      const res = await post({ code: code(), type: 'amount', value: 1500.99 }).expect(201);
      expect(res.body.discount.value).toBe(1500.99);
    });

    it('reads an expires_at without an offset as UTC and normalises an offset to UTC', async () => {
      const year = t.clock.now().getUTCFullYear() + 1;
      const plain = await post({ code: code(), type: 'fixed', value: 1, expires_at: `${year}-06-01T12:00:00` }).expect(
        201,
      );
      expect(plain.body.discount.expires_at).toBe(`${year}-06-01T12:00:00.000000Z`);
      const offset = await post({
        code: code(),
        type: 'fixed',
        value: 1,
        expires_at: `${year}-06-01T12:00:00+02:00`,
      }).expect(201);
      expect(offset.body.discount.expires_at).toBe(`${year}-06-01T10:00:00.000000Z`);
    });

    it('treats explicit nulls as "none": no limit, no expiry, every product', async () => {
      const res = await post({
        code: code(),
        type: 'fixed',
        value: 1,
        uses_limit: null,
        expires_at: null,
        product_ids: null,
      }).expect(201);
      expect(res.body.discount).toMatchObject({
        uses_limit: null,
        available_uses: null,
        never_expires: true,
        expires_at: null,
        product_ids: [],
      });
    });

    it('sets never_expires from expires_at, and accepts never_expires alone', async () => {
      const dated = await post({ code: code(), type: 'fixed', value: 1, expires_at: inAnHour() }).expect(201);
      expect(dated.body.discount.never_expires).toBe(false);
      const explicit = await post({
        code: code(),
        type: 'fixed',
        value: 1,
        expires_at: inAnHour(),
        never_expires: false,
      }).expect(201);
      expect(explicit.body.discount.never_expires).toBe(false);
      const never = await post({ code: code(), type: 'fixed', value: 1, never_expires: true }).expect(201);
      expect(never.body.discount).toMatchObject({ never_expires: true, expires_at: null });
    });

    describe('validation (422 with the field error)', () => {
      it.each<[string, Record<string, unknown>, string, string]>([
        ['code missing', { type: 'fixed', value: 1 }, 'code', 'code is required.'],
        ['code null', { code: null, type: 'fixed', value: 1 }, 'code', 'code is required.'],
        ['code blank', { code: '   ', type: 'fixed', value: 1 }, 'code', 'code is required.'],
        ['code not a string', { code: 42, type: 'fixed', value: 1 }, 'code', 'code must be a string.'],
        [
          'code of digits only',
          { code: '2024', type: 'fixed', value: 1 },
          'code',
          'code must contain at least one letter, so it cannot be mistaken for an id.',
        ],
        [
          'code with a space',
          { code: 'BLACK FRIDAY', type: 'fixed', value: 1 },
          'code',
          'code may contain only letters, digits, hyphens and underscores.',
        ],
        [
          'code with a slash',
          { code: 'A/B', type: 'fixed', value: 1 },
          'code',
          'code may contain only letters, digits, hyphens and underscores.',
        ],
        [
          'code too long',
          { code: 'A'.repeat(65), type: 'fixed', value: 1 },
          'code',
          'code must be at most 64 characters.',
        ],
        ['type missing', { code: 'X1', value: 1 }, 'type', 'type is required.'],
        [
          'type unknown',
          { code: 'X1', type: 'bogo', value: 1 },
          'type',
          'type must be one of: fixed, amount, percent, percentage, percentual, %.',
        ],
        [
          'type not a string',
          { code: 'X1', type: 1, value: 1 },
          'type',
          'type must be one of: fixed, amount, percent, percentage, percentual, %.',
        ],
        ['value missing', { code: 'X1', type: 'fixed' }, 'value', 'value is required.'],
        ['value zero', { code: 'X1', type: 'fixed', value: 0 }, 'value', 'value must be at least 0.01.'],
        ['value negative', { code: 'X1', type: 'fixed', value: -5 }, 'value', 'value must be at least 0.01.'],
        ['value below 0.01', { code: 'X1', type: 'fixed', value: 0.009 }, 'value', 'value must be at least 0.01.'],
        [
          'value with three decimals',
          { code: 'X1', type: 'fixed', value: 10.555 },
          'value',
          'value must have at most two decimals.',
        ],
        ['value as a string', { code: 'X1', type: 'fixed', value: '10' }, 'value', 'value must be a number.'],
        [
          'value too large',
          { code: 'X1', type: 'fixed', value: 1e12 },
          'value',
          'value must be at most 9999999999.99.',
        ],
        [
          'percent over 100',
          { code: 'X1', type: 'percent', value: 100.01 },
          'value',
          'value must be at most 100 for a percent discount.',
        ],
        [
          'percentage alias over 100',
          { code: 'X1', type: 'percentage', value: 150 },
          'value',
          'value must be at most 100 for a percent discount.',
        ],
        [
          'status unknown',
          { code: 'X1', type: 'fixed', value: 1, status: 'archived' },
          'status',
          'status must be one of: active, enabled, published, inactive, disabled, unpublished.',
        ],
        [
          'status null',
          { code: 'X1', type: 'fixed', value: 1, status: null },
          'status',
          'status must be one of: active, enabled, published, inactive, disabled, unpublished.',
        ],
        [
          'uses_limit zero',
          { code: 'X1', type: 'fixed', value: 1, uses_limit: 0 },
          'uses_limit',
          'uses_limit must be at least 1.',
        ],
        [
          'uses_limit fractional',
          { code: 'X1', type: 'fixed', value: 1, uses_limit: 1.5 },
          'uses_limit',
          'uses_limit must be an integer.',
        ],
        [
          'uses_limit as a string',
          { code: 'X1', type: 'fixed', value: 1, uses_limit: '5' },
          'uses_limit',
          'uses_limit must be an integer.',
        ],
        [
          'uses_limit too large',
          { code: 'X1', type: 'fixed', value: 1, uses_limit: 2 ** 31 },
          'uses_limit',
          'uses_limit must be at most 2147483647.',
        ],
        [
          'product_ids not an array',
          { code: 'X1', type: 'fixed', value: 1, product_ids: 3 },
          'product_ids',
          'product_ids must be an array of product ids (positive integers).',
        ],
        [
          'product_ids with a zero',
          { code: 'X1', type: 'fixed', value: 1, product_ids: [0] },
          'product_ids',
          'product_ids must be an array of product ids (positive integers).',
        ],
        [
          'product_ids with a string',
          { code: 'X1', type: 'fixed', value: 1, product_ids: ['1'] },
          'product_ids',
          'product_ids must be an array of product ids (positive integers).',
        ],
        [
          'single_use not a boolean',
          { code: 'X1', type: 'fixed', value: 1, single_use: 'yes' },
          'single_use',
          'single_use must be a boolean.',
        ],
        [
          'never_expires not a boolean',
          { code: 'X1', type: 'fixed', value: 1, never_expires: 1 },
          'never_expires',
          'never_expires must be a boolean.',
        ],
        [
          'expires_at not a date',
          { code: 'X1', type: 'fixed', value: 1, expires_at: 'tomorrow' },
          'expires_at',
          'expires_at must be an ISO 8601 date-time (for example 2026-12-31T23:59:59Z).',
        ],
        [
          'expires_at a date without time',
          { code: 'X1', type: 'fixed', value: 1, expires_at: '2099-12-31' },
          'expires_at',
          'expires_at must be an ISO 8601 date-time (for example 2026-12-31T23:59:59Z).',
        ],
        [
          'expires_at an impossible date',
          { code: 'X1', type: 'fixed', value: 1, expires_at: '2099-02-30T10:00:00Z' },
          'expires_at',
          'expires_at must be an ISO 8601 date-time (for example 2026-12-31T23:59:59Z).',
        ],
        [
          'expires_at a number',
          { code: 'X1', type: 'fixed', value: 1, expires_at: 4102444800 },
          'expires_at',
          'expires_at must be an ISO 8601 date-time (for example 2026-12-31T23:59:59Z).',
        ],
        [
          'expires_at in the past',
          { code: 'X1', type: 'fixed', value: 1, expires_at: '2020-01-01T00:00:00Z' },
          'expires_at',
          'expires_at must be in the future.',
        ],
        [
          'never_expires true with a date',
          { code: 'X1', type: 'fixed', value: 1, never_expires: true, expires_at: '2099-01-01T00:00:00Z' },
          'never_expires',
          'never_expires cannot be true when expires_at is given.',
        ],
        [
          'never_expires false without a date',
          { code: 'X1', type: 'fixed', value: 1, never_expires: false },
          'expires_at',
          'expires_at is required when never_expires is false.',
        ],
      ])('%s', async (_name, body, field, message) => {
        const res = await post(body).expect(422);
        expect(res.body).toEqual({ status: 'error', message: 'Validation failed.', errors: { [field]: [message] } });
      });

      it('reports every invalid field at once', async () => {
        const res = await post({ type: 'nope', value: 0, uses_limit: 0 }).expect(422);
        expect(Object.keys(res.body.errors).sort()).toEqual(['code', 'type', 'uses_limit', 'value']);
      });

      it('refuses product ids that are not the store’s products, including another store’s', async () => {
        const mine = await insertProduct(t, seller.storeId);
        const theirs = await insertProduct(t, other.storeId);
        const res = await post({ code: code(), type: 'fixed', value: 1, product_ids: [mine, theirs, 99999999] }).expect(
          422,
        );
        expect(res.body.errors).toEqual({
          product_ids: [`product_ids contains ids that are not products of this store: ${theirs}, 99999999.`],
        });
      });

      it('refuses an expires_at equal to the clock, accepts one a millisecond later', async () => {
        // Time stands still for this test, so "equal to the clock" is exact; the app's clock adds its offset.
        const frozen = Date.now();
        const spy = jest.spyOn(Date, 'now').mockReturnValue(frozen);
        try {
          const now = t.clock.now();
          const atNow = await post({ code: code(), type: 'fixed', value: 1, expires_at: now.toISOString() }).expect(
            422,
          );
          expect(atNow.body.errors).toEqual({ expires_at: ['expires_at must be in the future.'] });
          const later = new Date(now.getTime() + 1);
          const res = await post({ code: code(), type: 'fixed', value: 1, expires_at: later.toISOString() }).expect(
            201,
          );
          expect(res.body.discount.expires_at).toBe(later.toISOString().replace('Z', '000Z'));
        } finally {
          spy.mockRestore();
        }
      });

      it('does not create anything on a validation failure', async () => {
        await post({ code: 'NOTCREATED', type: 'fixed', value: 0 }).expect(422);
        await t.http.get('/v1/discounts/NOTCREATED').set(seller.auth).expect(404);
      });
    });

    describe('duplicate codes', () => {
      it('409 for the same code in any case or with surrounding spaces', async () => {
        await post({ code: 'Save10', type: 'fixed', value: 1 }).expect(201);
        for (const duplicate of ['Save10', 'SAVE10', 'save10', '  sAvE10 ']) {
          const res = await post({ code: duplicate, type: 'percent', value: 10 }).expect(409);
          expect(res.body).toEqual({ status: 'error', message: 'A discount with this code already exists.' });
        }
      });

      it('allows the same code in another store', async () => {
        await post({ code: 'SHARED', type: 'fixed', value: 1 }).expect(201);
        const res = await post({ code: 'shared', type: 'fixed', value: 2 }, other).expect(201);
        expect(res.body.discount.code).toBe('shared');
      });

      it('lets exactly one of many concurrent creations of one code win', async () => {
        const results = await Promise.all(
          Array.from({ length: 12 }, (_, i) => post({ code: i % 2 ? 'RACE' : 'race', type: 'fixed', value: 1 })),
        );
        const statuses = results.map((r) => r.status).sort();
        expect(statuses.filter((s) => s === 201)).toHaveLength(1);
        expect(statuses.filter((s) => s === 409)).toHaveLength(11);
      });
    });
  });

  describe('GET /v1/discounts', () => {
    it('lists only the store’s discounts, newest first, in the pagination envelope', async () => {
      const lister = await createSeller(t);
      const first = await createDiscount(t, lister, { code: 'LIST1', type: 'fixed', value: 1 });
      const second = await createDiscount(t, lister, { code: 'LIST2', type: 'percent', value: 5 });
      const third = await createDiscount(t, lister, { code: 'LIST3', type: 'fixed', value: 3 });
      await createDiscount(t, other, { code: 'NOTMINE', type: 'fixed', value: 1 });

      const res = await t.http.get('/v1/discounts').set(lister.auth).expect(200);
      expect(res.body).toEqual({
        status: 'success',
        page: 1,
        per_page: 15,
        last_page: 1,
        total: 3,
        discounts: [third, second, first],
      });

      const page2 = await t.http.get('/v1/discounts?page=2&per_page=2').set(lister.auth).expect(200);
      expect(page2.body).toMatchObject({ page: 2, per_page: 2, last_page: 2, total: 3 });
      expect(page2.body.discounts.map((d: { code: string }) => d.code)).toEqual(['LIST1']);

      const past = await t.http.get('/v1/discounts?page=5').set(lister.auth).expect(200);
      expect(past.body).toMatchObject({ total: 3, discounts: [] });

      // The status filter: only those of it, counted as such; another value is a 422 on it.
      await t.http.patch(`/v1/discounts/${second.id}`).set(lister.auth).send({ status: 'inactive' }).expect(200);
      const inactive = await t.http.get('/v1/discounts?status=inactive').set(lister.auth).expect(200);
      expect(inactive.body).toMatchObject({ total: 1, last_page: 1 });
      expect(inactive.body.discounts.map((d: { code: string }) => d.code)).toEqual(['LIST2']);
      const active = await t.http.get('/v1/discounts?status=active').set(lister.auth).expect(200);
      expect(active.body.discounts.map((d: { code: string }) => d.code)).toEqual(['LIST3', 'LIST1']);
      const bogus = await t.http.get('/v1/discounts?status=bogus').set(lister.auth).expect(422);
      expect(bogus.body.errors).toEqual({ status: ['status must be active or inactive.'] });
    });

    it('answers an empty list for a store without discounts', async () => {
      const empty = await createSeller(t);
      const res = await t.http.get('/v1/discounts').set(empty.auth).expect(200);
      expect(res.body).toEqual({ status: 'success', page: 1, per_page: 15, last_page: 1, total: 0, discounts: [] });
    });

    it.each([
      ['per_page=101', 'per_page'],
      ['per_page=0', 'per_page'],
      ['page=0', 'page'],
    ])('422 on %s', async (query, field) => {
      const res = await t.http.get(`/v1/discounts?${query}`).set(seller.auth).expect(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    });
  });

  describe('GET /v1/discounts/{id}', () => {
    it('finds a discount by numeric id and by code in any case', async () => {
      const created = await createDiscount(t, seller, { code: 'FindMe', type: 'fixed', value: 7 });
      const byId = await t.http.get(`/v1/discounts/${created.id}`).set(seller.auth).expect(200);
      expect(byId.body).toEqual({ status: 'success', discount: created });
      for (const ref of ['FindMe', 'findme', 'FINDME']) {
        const byCode = await t.http.get(`/v1/discounts/${ref}`).set(seller.auth).expect(200);
        expect(byCode.body).toEqual({ status: 'success', discount: created });
      }
    });

    it('404 for an unknown id or code, and for another store’s discount by id or code', async () => {
      const theirs = await createDiscount(t, other, { code: 'THEIRS', type: 'fixed', value: 1 });
      for (const ref of ['999999', 'NOSUCHCODE', '99999999999999999999', String(theirs.id), 'THEIRS']) {
        const res = await t.http.get(`/v1/discounts/${ref}`).set(seller.auth).expect(404);
        expect(res.body).toEqual({ status: 'error', message: 'Resource not found.' });
      }
    });
  });

  describe('PATCH /v1/discounts/{id}', () => {
    const patch = (ref: string | number, body: Record<string, unknown>, who = seller) =>
      t.http.patch(`/v1/discounts/${ref}`).set(who.auth).send(body);

    it('changes only the fields sent, normalising aliases, by id or by code', async () => {
      const created = await createDiscount(t, seller, { code: 'EDIT1', type: 'fixed', value: 10, uses_limit: 5 });
      const product = await insertProduct(t, seller.storeId);
      const res = await patch(created.id, {
        type: 'percentage',
        value: 15,
        status: 'disabled',
        product_ids: [product],
        single_use: true,
      }).expect(200);
      expect(res.body).toEqual({
        status: 'success',
        message: 'Discount updated successfully.',
        discount: {
          ...created,
          type: 'percent',
          value: 15,
          status: 'inactive',
          product_ids: [product],
          single_use: true,
          updated_at: expect.stringMatching(TIMESTAMP),
        },
      });
      const byCode = await patch('edit1', { status: 'published', uses_limit: null, product_ids: null }).expect(200);
      expect(byCode.body.discount).toMatchObject({
        status: 'active',
        uses_limit: null,
        available_uses: null,
        product_ids: [],
        type: 'percent',
        value: 15,
      });
    });

    it('renames the code; the new code must be free in the store, ignoring case', async () => {
      const a = await createDiscount(t, seller, { code: 'RENAME_A', type: 'fixed', value: 1 });
      await createDiscount(t, seller, { code: 'RENAME_B', type: 'fixed', value: 1 });
      const conflict = await patch(a.id, { code: 'rename_b' }).expect(409);
      expect(conflict.body).toEqual({ status: 'error', message: 'A discount with this code already exists.' });
      const recased = await patch(a.id, { code: 'rename_a' }).expect(200);
      expect(recased.body.discount.code).toBe('rename_a');
      const renamed = await patch('RENAME_A', { code: 'RENAMED' }).expect(200);
      expect(renamed.body.discount.code).toBe('RENAMED');
      await t.http.get('/v1/discounts/RENAME_A').set(seller.auth).expect(404);
      await t.http.get('/v1/discounts/renamed').set(seller.auth).expect(200);
    });

    it('applies the creation rules to the fields sent', async () => {
      const created = await createDiscount(t, seller, { code: code(), type: 'fixed', value: 10 });
      const cases: [Record<string, unknown>, string, string][] = [
        [{ value: 0 }, 'value', 'value must be at least 0.01.'],
        [{ value: 1.234 }, 'value', 'value must have at most two decimals.'],
        [{ type: 'percent', value: 101 }, 'value', 'value must be at most 100 for a percent discount.'],
        [{ type: 'free' }, 'type', 'type must be one of: fixed, amount, percent, percentage, percentual, %.'],
        [
          { status: 'paused' },
          'status',
          'status must be one of: active, enabled, published, inactive, disabled, unpublished.',
        ],
        [{ code: '' }, 'code', 'code is required.'],
        [{ code: '777' }, 'code', 'code must contain at least one letter, so it cannot be mistaken for an id.'],
        [{ code: null }, 'code', 'code must be a string.'],
        [{ uses_limit: 0 }, 'uses_limit', 'uses_limit must be at least 1.'],
        [{ expires_at: '2020-01-01T00:00:00Z' }, 'expires_at', 'expires_at must be in the future.'],
        [
          { expires_at: 'soon' },
          'expires_at',
          'expires_at must be an ISO 8601 date-time (for example 2026-12-31T23:59:59Z).',
        ],
        [
          { product_ids: [99999999] },
          'product_ids',
          'product_ids contains ids that are not products of this store: 99999999.',
        ],
        [{ single_use: null }, 'single_use', 'single_use must be a boolean.'],
      ];
      for (const [body, field, message] of cases) {
        const res = await patch(created.id, body).expect(422);
        expect(res.body).toEqual({ status: 'error', message: 'Validation failed.', errors: { [field]: [message] } });
      }
      const unchanged = await t.http.get(`/v1/discounts/${created.id}`).set(seller.auth).expect(200);
      expect(unchanged.body.discount).toEqual(created);
    });

    it('checks a percent against the stored value when only the type changes', async () => {
      const created = await createDiscount(t, seller, { code: code(), type: 'fixed', value: 150 });
      const res = await patch(created.id, { type: 'percent' }).expect(422);
      expect(res.body.errors).toEqual({
        type: ['type percent needs a value of at most 100; send a new value with it.'],
      });
      await patch(created.id, { type: 'percent', value: 50 }).expect(200);
      const tooHigh = await patch(created.id, { value: 100.5 }).expect(422);
      expect(tooHigh.body.errors).toEqual({ value: ['value must be at most 100 for a percent discount.'] });
    });

    it('refuses a uses_limit below the uses already taken', async () => {
      const created = await createDiscount(t, seller, { code: code(), type: 'fixed', value: 1, uses_limit: 10 });
      await t.dataSource.query('UPDATE discounts SET used_count = 3 WHERE id = $1', [created.id]);
      const res = await patch(created.id, { uses_limit: 2 }).expect(422);
      expect(res.body.errors).toEqual({ uses_limit: ['uses_limit cannot be lower than used_count (3).'] });
      const ok = await patch(created.id, { uses_limit: 3 }).expect(200);
      expect(ok.body.discount).toMatchObject({ uses_limit: 3, used_count: 3, available_uses: 0 });
    });

    it('keeps expires_at and never_expires in agreement', async () => {
      const created = await createDiscount(t, seller, { code: code(), type: 'fixed', value: 1 });
      const date = inAnHour();
      const dated = await patch(created.id, { expires_at: date }).expect(200);
      expect(dated.body.discount).toMatchObject({ never_expires: false, expires_at: date.replace('Z', '000Z') });

      const stillDated = await patch(created.id, { never_expires: false, value: 2 }).expect(200);
      expect(stillDated.body.discount).toMatchObject({
        never_expires: false,
        expires_at: date.replace('Z', '000Z'),
        value: 2,
      });

      const cleared = await patch(created.id, { never_expires: true }).expect(200);
      expect(cleared.body.discount).toMatchObject({ never_expires: true, expires_at: null });

      const needsDate = await patch(created.id, { never_expires: false }).expect(422);
      expect(needsDate.body.errors).toEqual({ expires_at: ['expires_at is required when never_expires is false.'] });

      await patch(created.id, { expires_at: date }).expect(200);
      const nulled = await patch(created.id, { expires_at: null }).expect(200);
      expect(nulled.body.discount).toMatchObject({ never_expires: true, expires_at: null });

      const contradiction = await patch(created.id, { never_expires: true, expires_at: date }).expect(422);
      expect(contradiction.body.errors).toEqual({
        never_expires: ['never_expires cannot be true when expires_at is given.'],
      });
      const contradiction2 = await patch(created.id, { never_expires: false, expires_at: null }).expect(422);
      expect(contradiction2.body.errors).toEqual({
        expires_at: ['expires_at is required when never_expires is false.'],
      });
    });

    it('404 for an unknown discount and for another store’s, leaving it unchanged', async () => {
      const theirs = await createDiscount(t, other, { code: 'THEIRS_PATCH', type: 'fixed', value: 1 });
      for (const ref of [String(theirs.id), 'THEIRS_PATCH', '999999']) {
        const res = await patch(ref, { value: 2 }).expect(404);
        expect(res.body).toEqual({ status: 'error', message: 'Resource not found.' });
      }
      const still = await t.http.get(`/v1/discounts/${theirs.id}`).set(other.auth).expect(200);
      expect(still.body.discount.value).toBe(1);
    });
  });

  describe('DELETE /v1/discounts/{id}', () => {
    it('deletes by id and answers {id, code}; the code is free again', async () => {
      const created = await createDiscount(t, seller, { code: 'GoneSoon', type: 'fixed', value: 1 });
      const res = await t.http.delete(`/v1/discounts/${created.id}`).set(seller.auth).expect(200);
      expect(res.body).toEqual({
        status: 'success',
        message: 'Discount deleted successfully.',
        data: { id: created.id, code: 'GoneSoon' },
      });
      await t.http.get(`/v1/discounts/${created.id}`).set(seller.auth).expect(404);
      await t.http.delete(`/v1/discounts/${created.id}`).set(seller.auth).expect(404);
      await post({ code: 'GONESOON', type: 'fixed', value: 1 }).expect(201);
    });

    it('deletes by code in any case', async () => {
      const created = await createDiscount(t, seller, { code: 'ByCode', type: 'fixed', value: 1 });
      const res = await t.http.delete('/v1/discounts/bycode').set(seller.auth).expect(200);
      expect(res.body.data).toEqual({ id: created.id, code: 'ByCode' });
    });

    it('404 for another store’s discount, which survives', async () => {
      const theirs = await createDiscount(t, other, { code: 'THEIRS_DEL', type: 'fixed', value: 1 });
      for (const ref of [String(theirs.id), 'THEIRS_DEL']) {
        const res = await t.http.delete(`/v1/discounts/${ref}`).set(seller.auth).expect(404);
        expect(res.body).toEqual({ status: 'error', message: 'Resource not found.' });
      }
      await t.http.get(`/v1/discounts/${theirs.id}`).set(other.auth).expect(200);
    });
  });

  describe('a deleted product (README of discounts, *A deleted product*)', () => {
    const deleteProduct = (id: number, who = seller) => t.http.delete(`/v1/products/${id}`).set(who.auth);
    const discountOf = async (ref: string, who = seller) =>
      (await t.http.get(`/v1/discounts/${ref}`).set(who.auth).expect(200)).body.discount;

    it('leaves every discount’s product_ids as its deletion answers, and the ids left can be sent back', async () => {
      const kept = await insertProduct(t, seller.storeId);
      const gone = await insertProduct(t, seller.storeId);
      await post({ code: 'DANG', type: 'fixed', value: 1, product_ids: [gone, kept] }).expect(201);
      await post({ code: 'DANG2', type: 'percent', value: 5, product_ids: [kept, gone] }).expect(201);
      await post({ code: 'OTHERS', type: 'fixed', value: 1, product_ids: [kept] }).expect(201);
      const untouched = await discountOf('OTHERS');

      await deleteProduct(gone).expect(200);
      // No waiting: the change is in the deletion's own transaction, not an after-commit job.
      expect(await discountOf('DANG')).toMatchObject({ product_ids: [kept], status: 'active' });
      expect(await discountOf('DANG2')).toMatchObject({ product_ids: [kept], status: 'active' });
      expect(await discountOf('OTHERS')).toEqual(untouched);
      await t.http
        .patch('/v1/discounts/DANG')
        .set(seller.auth)
        .send({ product_ids: [kept] })
        .expect(200);
      const res = await t.http
        .patch('/v1/discounts/DANG')
        .set(seller.auth)
        .send({ product_ids: [kept, gone] });
      expect(res.status).toBe(422);
    });

    it('makes a discount whose last product it was inactive, not a discount for every product', async () => {
      const only = await insertProduct(t, seller.storeId);
      await post({ code: 'ONLYONE', type: 'fixed', value: 1, product_ids: [only] }).expect(201);
      await post({ code: 'ALLPRODUCTS', type: 'fixed', value: 1 }).expect(201);
      await post({ code: 'WASOFF', type: 'fixed', value: 1, status: 'inactive', product_ids: [only] }).expect(201);

      await deleteProduct(only).expect(200);
      const orphan = await discountOf('ONLYONE');
      expect(orphan).toMatchObject({ product_ids: [], status: 'inactive' });
      expect(orphan.updated_at).not.toBe(orphan.created_at);
      expect(await discountOf('ALLPRODUCTS')).toMatchObject({ product_ids: [], status: 'active' });
      expect(await discountOf('WASOFF')).toMatchObject({ product_ids: [], status: 'inactive' });
    });

    it.each([
      ['POST', { code: 'RACEPOST', type: 'fixed', value: 1 }],
      ['PATCH', { code: 'RACEPATCH', type: 'fixed', value: 1 }],
    ])('%s naming a product whose deletion is under way waits for it, then answers 422', async (method, body) => {
      const doomed = await insertProduct(t, seller.storeId);
      if (method === 'PATCH') await post(body).expect(201);
      const res = await sentWhileDeleting(t.dataSource, doomed, () =>
        (method === 'POST'
          ? post({ ...body, product_ids: [doomed] })
          : t.http
              .patch(`/v1/discounts/${body.code}`)
              .set(seller.auth)
              .send({ product_ids: [doomed] })
        ).then((answer) => answer),
      );
      expect({ status: res.status, body: res.body }).toEqual({
        status: 422,
        body: {
          status: 'error',
          message: 'Validation failed.',
          errors: { product_ids: [`product_ids contains ids that are not products of this store: ${doomed}.`] },
        },
      });
      if (method === 'PATCH') expect(await discountOf(body.code)).toMatchObject({ product_ids: [] });
      else await t.http.get(`/v1/discounts/${body.code}`).set(seller.auth).expect(404);
    });

    it('touches no other store’s discount, and nothing when its deletion is refused (404)', async () => {
      const mine = await insertProduct(t, seller.storeId);
      await post({ code: 'THEIRS_P', type: 'fixed', value: 1, product_ids: [] }, other).expect(201);
      // Another store's discount cannot name this product, so a raw row stands in for a stale one.
      await t.dataSource.query(
        `UPDATE discounts SET product_ids = ARRAY[$1]::int[] WHERE store_id = $2 AND code_key = 'theirs_p'`,
        [mine, other.storeId],
      );
      await deleteProduct(mine, other).expect(404);
      await deleteProduct(mine).expect(200);
      expect(await discountOf('THEIRS_P', other)).toMatchObject({ product_ids: [mine], status: 'active' });
    });
  });

  describe('authentication and scopes on every route', () => {
    let target: { id: number };
    beforeAll(async () => {
      target = await createDiscount(t, seller, { code: 'AUTHTARGET', type: 'fixed', value: 1 });
    });

    const routes: [string, 'get' | 'post' | 'patch' | 'delete', () => string, Scope][] = [
      ['POST /v1/discounts', 'post', () => '/v1/discounts', 'discounts.write'],
      ['GET /v1/discounts', 'get', () => '/v1/discounts', 'discounts.read'],
      ['GET /v1/discounts/{id}', 'get', () => `/v1/discounts/${target.id}`, 'discounts.read'],
      ['PATCH /v1/discounts/{id}', 'patch', () => `/v1/discounts/${target.id}`, 'discounts.write'],
      ['DELETE /v1/discounts/{id}', 'delete', () => `/v1/discounts/${target.id}`, 'discounts.write'],
    ];

    it.each(routes)('%s: 401 without a token and with an unknown one', async (_name, method, path) => {
      const none = await t.http[method](path()).send({}).expect(401);
      expect(none.body).toEqual({ status: 'error', message: 'Token not provided' });
      const bad = await t.http[method](path()).set('Authorization', 'Bearer sk_nope').send({}).expect(401);
      expect(bad.body).toEqual({ status: 'error', message: 'Invalid token' });
    });

    it.each(routes)(
      '%s: 403 with the scope details for a token with only the other discounts scope',
      async (_name, method, path, scope) => {
        const granted: Scope[] = [scope === 'discounts.read' ? 'discounts.write' : 'discounts.read', 'orders.write'];
        const token = await seller.tokenWith(granted);
        const res = await t.http[method](path())
          .set('Authorization', `Bearer ${token}`)
          .send({ code: 'X', type: 'fixed', value: 1 })
          .expect(403);
        expect(res.body).toEqual({
          status: 'error',
          message: 'Permission denied for this endpoint.',
          error_code: 'insufficient_scope',
          required_scopes: [scope],
          missing_scopes: [scope],
          granted_scopes: granted,
        });
        await t.http.get(`/v1/discounts/${target.id}`).set(seller.auth).expect(200);
      },
    );

    it('works with exactly the route’s scope', async () => {
      const reader = { Authorization: `Bearer ${await seller.tokenWith(['discounts.read'])}` };
      const writer = { Authorization: `Bearer ${await seller.tokenWith(['discounts.write'])}` };
      await t.http.get('/v1/discounts').set(reader).expect(200);
      await t.http.get(`/v1/discounts/${target.id}`).set(reader).expect(200);
      const created = await t.http
        .post('/v1/discounts')
        .set(writer)
        .send({ code: code(), type: 'fixed', value: 1 })
        .expect(201);
      await t.http.patch(`/v1/discounts/${created.body.discount.id}`).set(writer).send({ value: 2 }).expect(200);
      await t.http.delete(`/v1/discounts/${created.body.discount.id}`).set(writer).expect(200);
    });
  });

  it('documents every route in OpenAPI with its scope, schemas and error responses', async () => {
    const res = await t.http.get('/docs-json').expect(200);
    const paths = res.body.paths;
    const operations = [
      [
        paths['/v1/discounts'].post,
        'discounts.write',
        ['201', '400', '401', '403', '409', '413', '415', '422', '429', '500', '503'],
      ],
      [paths['/v1/discounts'].get, 'discounts.read', ['200', '401', '403', '422', '429', '500', '503']],
      [paths['/v1/discounts/{id}'].get, 'discounts.read', ['200', '401', '403', '404', '429', '500', '503']],
      [
        paths['/v1/discounts/{id}'].patch,
        'discounts.write',
        ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '500', '503'],
      ],
      [
        paths['/v1/discounts/{id}'].delete,
        'discounts.write',
        ['200', '400', '401', '403', '404', '413', '415', '429', '500', '503'],
      ],
    ] as const;
    for (const [operation, scope, statuses] of operations) {
      expect(operation.tags).toEqual(['Discounts']);
      expect(operation['x-required-scopes']).toEqual([scope]);
      expect(Object.keys(operation.responses).sort()).toEqual([...statuses].sort());
    }
    const schemas = res.body.components.schemas;
    expect(Object.keys(schemas.DiscountDto.properties)).toEqual([
      'id',
      'code',
      'type',
      'value',
      'status',
      'product_ids',
      'uses_limit',
      'used_count',
      'available_uses',
      'single_use',
      'never_expires',
      'expires_at',
      'created_at',
      'updated_at',
    ]);
    expect(schemas.CreateDiscountDto.required.sort()).toEqual(['code', 'type', 'value']);
    expect(schemas.CreateDiscountDto.properties.type.enum).toEqual([
      'fixed',
      'amount',
      'percent',
      'percentage',
      'percentual',
      '%',
    ]);
    expect(schemas.CreateDiscountDto.properties.never_expires.description).toMatch(/never_expires: true` clears/);
  });
});
