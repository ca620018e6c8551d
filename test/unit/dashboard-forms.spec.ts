import { createValidationPipe } from '../../src/common/http/validation.pipe';
import { CreatePlanDto } from '../../src/modules/catalog/plans/dto/plan.dto';
import { CreateProductDto, UpdateProductDto } from '../../src/modules/catalog/products/dto/product.dto';
import { CreateDiscountDto } from '../../src/modules/discounts/dto/create-discount.dto';
import { isCurrencyCode } from '../../src/modules/identity/sellers/currencies';
import {
  dashboardPage,
  formMoney,
  FormProblem,
  pageNotice,
  validateForm,
} from '../../src/modules/identity/web/form-validation';
import { StoreSettingsForm } from '../../src/modules/identity/web/store-settings.form';
import { CreateWebhookDto } from '../../src/modules/webhooks/dto/webhook-input.dto';

/**
 * The dashboard's forms become the API's input in one place (identity's `web/form-validation.ts`):
 * a field left empty is missing (one `<field> is required.`, or nothing when optional), a value of
 * the wrong type gets its type's message alone, money takes a decimal comma.
 */
describe('dashboard forms', () => {
  // The app adds the implicit number bounds of every DTO when it builds its pipe; so does this test.
  beforeAll(() => createValidationPipe());

  const errorsOf = async (type: new () => object, values: Record<string, unknown>, required?: string[]) =>
    (await validateForm(type, values, { required })).errors;

  describe('a field left empty is a missing field', () => {
    it('a required one is `<field> is required.` and nothing else', async () => {
      const plan = { product_pid: 'prod_x', name: 'Monthly', price: formMoney(''), interval: 'month' };
      expect(await errorsOf(CreatePlanDto, plan)).toEqual({ price: ['price is required.'] });
      expect(await errorsOf(CreateWebhookDto, { url: '', events: ['order_approved'] })).toEqual({
        url: ['url is required.'],
      });
      expect(await errorsOf(CreateDiscountDto, { code: 'SAVE', type: 'percent', value: formMoney('') })).toEqual({
        value: ['value is required.'],
      });
      expect(await errorsOf(CreateProductDto, { name: '' })).toEqual({ name: ['name is required.'] });
      expect(await errorsOf(StoreSettingsForm, { name: '', brand: 'B', currency: '' })).toEqual({
        name: ['name is required.'],
        currency: ['currency is required.'],
      });
    });

    it('an optional one says nothing', async () => {
      expect(await errorsOf(CreateProductDto, { name: 'Guide', price: formMoney(''), category: '' })).toBeNull();
      expect(await errorsOf(StoreSettingsForm, { name: 'N', brand: 'B', currency: 'MZN', logo_url: '' })).toBeNull();
    });

    it('a field the form always shows is required even where the API may leave it out (an edit form)', async () => {
      expect(await errorsOf(UpdateProductDto, { name: '', price: 10 }, ['name'])).toEqual({
        name: ['name is required.'],
      });
      expect(await errorsOf(UpdateProductDto, { name: 'Kept' }, ['name'])).toBeNull();
    });
  });

  it('a value of the wrong type gets its type message alone, no range rule on top', async () => {
    expect(await errorsOf(CreateProductDto, { name: 'Guide', price: formMoney('abc') })).toEqual({
      price: ['price must be a number.'],
    });
    const plan = { product_pid: 'prod_x', name: 'Monthly', price: formMoney('abc'), interval: 'month' };
    expect(await errorsOf(CreatePlanDto, plan)).toEqual({
      price: ['price must be a number.'],
    });
    // A number of the right type still gets its range rule.
    expect(await errorsOf(CreatePlanDto, { ...plan, price: formMoney('0') })).toEqual({
      price: ['price must be at least 0.01.'],
    });
  });

  describe('money with a decimal comma', () => {
    it.each([
      ['150,50', 150.5],
      ['150.50', 150.5],
      ['150,5', 150.5],
      ['150', 150],
      [' 99,90 ', 99.9],
      ['0,01', 0.01],
    ])('%s is %d', (text, amount) => {
      expect(formMoney(text)).toBe(amount);
    });

    it.each(['1.234,50', '1,234.50', '1.000', '1,000', '150,505', '1 234,50', '1.2.3'])(
      '%s (thousands separators, or more than two decimals) is one clear message, never guessed',
      async (text) => {
        expect(formMoney(text)).toBeInstanceOf(FormProblem);
        expect(await errorsOf(CreateProductDto, { name: 'Guide', price: formMoney(text) })).toEqual({
          price: [
            'price must be a number with at most two decimals and no thousands separator, for example 1234.50 or 1234,50.',
          ],
        });
      },
    );

    it('empty is absent, or null (clear it) where asked', () => {
      expect(formMoney('')).toBeUndefined();
      expect(formMoney('  ', null)).toBeNull();
      expect(formMoney(undefined)).toBeUndefined();
    });

    it('the product price with a comma is the API’s number', async () => {
      const checked = await validateForm(CreateProductDto, { name: 'Guide', price: formMoney('150,50') });
      expect(checked.errors).toBeNull();
      expect(checked.dto!.price).toBe(150.5);
    });
  });

  describe("a list's ?page=", () => {
    it.each([
      [undefined, 1, null],
      ['3', 3, null],
      ['-1', 1, '-1'],
      ['0', 1, '0'],
      ['abc', 1, 'abc'],
      ['1.5', 1, '1.5'],
      ['99999999999999999999', 1, '99999999999999999999'],
    ])('%s is page %d (asked: %s)', (page, expected, asked) => {
      const request = dashboardPage({ page }, 20);
      expect(request).toEqual({ page: expected, perPage: 20, offset: (expected - 1) * 20, asked });
      expect(pageNotice(request.asked) === null).toBe(asked === null);
    });

    it('says what it showed instead', () => {
      expect(pageNotice('-1')).toBe('There is no page “-1”: page numbers start at 1. This is page 1.');
    });
  });

  describe('currencies', () => {
    it.each(['MZN', 'USD', 'EUR', 'BRL', 'ZAR'])('%s is an ISO 4217 code', (code) => {
      expect(isCurrencyCode(code)).toBe(true);
    });
    it.each(['ZZZ', 'ABC', 'mzn', 'MZ', ''])('%s is not', (code) => {
      expect(isCurrencyCode(code)).toBe(false);
    });

    it('Settings → Store refuses a code that is not ISO 4217 with one message', async () => {
      expect(await errorsOf(StoreSettingsForm, { name: 'N', brand: 'B', currency: 'ZZZ' })).toEqual({
        currency: ['currency must be an ISO 4217 code, for example MZN, USD or EUR.'],
      });
    });
  });
});
