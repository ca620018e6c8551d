import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';
import { toErrorResponse } from '../../src/common/http/exception.filter';
import { inspectInput } from '../../src/common/http/input-text';
import { createValidationPipe, fastAccept } from '../../src/common/http/validation.pipe';
import { CreateOrderDto, CustomerPayloadDto, TrackingDto } from '../../src/modules/billing/orders/dto/create-order.dto';
import { acceptCreateOrder } from '../../src/modules/billing/orders/dto/create-order.fast-accept';

/*
 * The fast accept path of CreateOrderDto against the full path (class-transformer + class-validator)
 * over a valid body and systematic mutations of every field: it must never accept what the full
 * path rejects, must build exactly the instance the full path builds, and must accept every valid
 * body except the few unusual ones it leaves to the full path on purpose (`deferred`).
 */

const BODY: ArgumentMetadata = { type: 'body', metatype: CreateOrderDto };
const pipe = createValidationPipe();

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * The pipe's full path: its check of every string (U+0000, unpaired surrogates), then Nest's own
 * transform on the app's pipe (same options), without the fast accept override.
 */
async function fullPath(body: unknown): Promise<Outcome> {
  const inspection = inspectInput(body);
  if (inspection.errors) return { ok: false, error: inspection.errors };
  try {
    return { ok: true, value: await ValidationPipe.prototype.transform.call(pipe, body, BODY) };
  } catch (error) {
    return { ok: false, error };
  }
}

const MISSING = Symbol('missing');
const EMOJI = '\u{1F600}'; // a surrogate pair: two UTF-16 units, one character for MaxLength

interface Case {
  name: string;
  body: () => unknown;
  /** Valid, but unusual enough that the fast path leaves it to the full path. */
  deferred?: boolean;
}

const base = () => ({
  amount: 1500,
  product_pid: 'prd_7Hk2mQ9xLp',
  customer: {
    name: 'Ana Macuácua',
    email: 'ana@example.com',
    mobile_number: '+258841234567',
    payment_number: '841234567',
  },
  plan_id: 'pln_4f9QaZ',
  from_order: 'ORD-8K2M4Q7XPA3Z',
  affiliate_id: 3,
  return_url: 'https://shop.example.com/thanks',
  cancel_url: 'https://shop.example.com/cart',
  coupon_code: 'WELCOME10',
  tracking: {
    utm_source: 'facebook',
    utm_campaign: 'black-friday',
    utm_medium: 'cpc',
    utm_content: 'banner-a',
    utm_term: 'ebook',
  },
});
const minimal = () => ({
  amount: 10,
  product_pid: 'p',
  customer: { name: 'A', email: 'a@b.co', mobile_number: '+2588412345' },
});

/** A copy that keeps own `__proto__` keys and null prototypes, as `JSON.parse` would hand them over. */
function copy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copy) as T;
  if (typeof value !== 'object' || value === null) return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out = Object.create(proto);
  for (const key of Object.keys(value)) {
    Object.defineProperty(out, key, {
      value: copy((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function withValue(make: () => Record<string, unknown>, path: string, value: unknown): () => unknown {
  return () => {
    const body = make();
    const keys = path.split('.');
    let target: Record<string, unknown> = body;
    for (const key of keys.slice(0, -1)) {
      if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
      target = target[key] as Record<string, unknown>;
    }
    const last = keys[keys.length - 1];
    if (value === MISSING) delete target[last];
    else target[last] = copy(value);
    return body;
  };
}

const nullProto = (entries: Record<string, unknown>) => Object.assign(Object.create(null), entries);

// Every field gets these, whatever its type.
const ANY_FIELD: unknown[] = [
  MISSING,
  null,
  undefined,
  true,
  false,
  0,
  -0,
  1,
  -1,
  3,
  10,
  1.5,
  10.005,
  1e21,
  NaN,
  Infinity,
  -Infinity,
  '',
  ' ',
  'x',
  '10',
  '1500',
  '3',
  'null',
  [],
  ['x'],
  [1],
  [{}],
  {},
  { name: 'A' },
  new Date(0),
];

const strings = (max: number) => [
  'a'.repeat(max - 1),
  'a'.repeat(max),
  'a'.repeat(max + 1),
  'a'.repeat(2 * max),
  ' '.repeat(max),
  'é'.repeat(max),
  'é'.repeat(max + 1),
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udc00',
  '\udc00\ud800',
  { value: EMOJI.repeat(max), deferred: true },
  EMOJI.repeat(max + 1),
  { value: 'a\uFE0F'.repeat(Math.floor(max / 2) + 1), deferred: true },
  { value: 'x' + EMOJI.repeat(Math.floor(max / 2)), deferred: true },
  new String('abc'),
];

const EMAILS = [
  'ana@example.com',
  'ANA@EXAMPLE.COM',
  'ana+tag@example.co.mz',
  'a@b.co',
  'a@b',
  'a@b.c',
  'ana@localhost',
  'ana@@example.com',
  ' ana@example.com',
  'ana@example.com ',
  '"quoted"@example.com',
  'ana@[127.0.0.1]',
  'ana@127.0.0.1',
  'ána@example.com',
  'ana@exämple.com',
  'ana@xn--exmple-cua.com',
  'ana.@example.com',
  '.ana@example.com',
  'a..b@example.com',
  'ana@example..com',
  'ana@-example.com',
  'ana@example.com.',
  `${'a'.repeat(64)}@example.com`,
  `${'a'.repeat(65)}@example.com`,
  `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(57)}.com`, // 255 characters
  `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(58)}.com`, // 256
  'ana@example',
  'ana',
  '@example.com',
  'ana@exa mple.com',
  'ana@example.com\n',
];

const URLS = [
  'https://shop.example.com/thanks',
  'http://shop.example.com',
  'HTTPS://SHOP.EXAMPLE.COM/',
  'http://localhost:3000/x',
  'https://localhost',
  'https://127.0.0.1/x',
  'https://[::1]/x',
  'https://user:pass@shop.example.com/x',
  'https://shop.example.com/a?b=c#d',
  'https://shop.example.com:99999/',
  'ftp://shop.example.com',
  'shop.example.com',
  '//shop.example.com',
  'https://',
  'https:///x',
  'javascript:alert(1)',
  'mailto:a@b.co',
  'https://exa mple.com',
  'https://a_b.example.com',
  'https://xn--bcher-kva.example/',
  'https://bücher.example/',
  ' https://shop.example.com',
  `https://e.co/${'a'.repeat(2048 - 13)}`,
  `https://e.co/${'a'.repeat(2048 - 12)}`,
  `https://${'a'.repeat(64)}.com/`,
];

const MOBILES = [
  '+258841234567',
  '+1234567',
  '+123456',
  '+123456789012345',
  '+1234567890123456',
  '+0123456789',
  '258841234567',
  '+258 84 123 4567',
  '+258841234567\n',
  '\n+258841234567',
  '+２５８８４１２３４５６７',
  258841234567,
];

const AMOUNTS = [
  9.99,
  10,
  10.0,
  10.01,
  10.1,
  10.005,
  10.000000001,
  12.345,
  1500.5,
  0.1 + 0.2,
  0.1 + 0.2 + 10,
  99999999.99,
  1e20,
  1e21,
  1e22,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_VALUE,
  1e-7,
  -10,
  '1500',
  '10.00',
  [1500],
  { value: 1500 },
  2 ** 31,
  9999999999.99,
  10000000000,
  1e13, // valid up to numeric(12,2), all past 2^31−1 (deferred)
];

const INTEGERS = [1, 2, 0, -1, 1.5, 1.0, 2 ** 31 - 1, 2 ** 31, 2 ** 53, 2 ** 53 + 2, 1e21, 1e308, '3', Infinity, [3]];

const REFERENCES = [12, 0, -0, 1.5, 1e21, 1e-7, 1e64, Number.MAX_VALUE, 2 ** 64, -1, 'ORD-8K2M4Q7XPA3Z'];

const OBJECTS = [null, {}, [], [{}], 'x', 1, { extra: 1 }];

type Field = { path: string; values: unknown[] };

/** The mutations of each field, by path. Every validated field of the DTO must have an entry. */
const VALUES: Record<string, unknown[]> = {
  amount: AMOUNTS,
  product_pid: strings(64),
  customer: [...OBJECTS, nullProto(minimal().customer)],
  'customer.name': strings(255),
  'customer.email': EMAILS,
  'customer.mobile_number': MOBILES,
  'customer.payment_number': strings(32),
  plan_id: strings(64),
  from_order: [...strings(64), ...REFERENCES],
  affiliate_id: INTEGERS,
  return_url: URLS,
  cancel_url: URLS,
  coupon_code: strings(64),
  tracking: [...OBJECTS, { utm_source: null }, nullProto({ utm_source: 'x' })],
  'tracking.utm_source': strings(255),
  'tracking.utm_campaign': strings(255),
  'tracking.utm_medium': strings(255),
  'tracking.utm_content': strings(255),
  'tracking.utm_term': strings(255),
};

/**
 * Every validated field of the DTO and of its nested DTOs (`@ValidateNested()` with `@Type()`), read
 * from class-validator's and class-transformer's metadata: a field added to the DTO shows up here,
 * so the fast path cannot drop it unnoticed.
 */
type DtoClass = new () => object;

function dtoFieldPaths(target: DtoClass, prefix = ''): string[] {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
  const names = [...new Set(metadatas.map((m) => m.propertyName))];
  // The class `@Type()` gives each nested object: what class-transformer builds from `{}`.
  const plain: Record<string, object> = Object.fromEntries(names.map((name) => [name, {}]));
  const probe = plainToInstance(target, plain) as Record<string, object>;
  return names.flatMap((name) => {
    const nested = metadatas.some((m) => m.propertyName === name && m.type === 'nestedValidation');
    const type = nested ? (probe[name].constructor as DtoClass) : undefined;
    return [`${prefix}${name}`, ...(type && type !== Object ? dtoFieldPaths(type, `${prefix}${name}.`) : [])];
  });
}

const DTO_FIELDS = dtoFieldPaths(CreateOrderDto);
const FIELDS: Field[] = DTO_FIELDS.map((path) => ({ path, values: VALUES[path] ?? [] }));

// The full path takes any object for `customer` and `tracking` (even a Date); the fast path only JSON's.
// Nor does it take a number past ±(2^31−1) anywhere (valid for `from_order`, which becomes a string).
const isDeferredValue = (value: unknown) =>
  (typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) !== Object.prototype) ||
  (typeof value === 'number' && !(Math.abs(value) < 2 ** 31));

function fieldCases(): Case[] {
  const cases: Case[] = [];
  for (const [bodyName, make] of [
    ['base', base],
    ['minimal', minimal],
  ] as const) {
    for (const field of FIELDS) {
      for (const entry of [...ANY_FIELD, ...field.values]) {
        const { value, deferred } =
          typeof entry === 'object' && entry !== null && 'deferred' in entry
            ? (entry as { value: unknown; deferred: boolean })
            : { value: entry, deferred: false };
        cases.push({
          name: `${bodyName} ${field.path} = ${show(value)}`,
          body: withValue(make, field.path, value),
          deferred: deferred || isDeferredValue(value),
        });
      }
    }
  }
  return cases;
}

function show(value: unknown): string {
  if (value === MISSING) return '(missing)';
  if (typeof value === 'string')
    return value.length > 40 ? `${JSON.stringify(value.slice(0, 12))}… (${value.length})` : JSON.stringify(value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (value instanceof Date || value instanceof String) return `${value.constructor.name}(${String(value)})`;
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === null)
    return `null-prototype ${JSON.stringify(value)}`;
  return JSON.stringify(value) ?? String(value);
}

const POLLUTION = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

function extraCases(): Case[] {
  const json = (text: string): Case => ({
    name: `JSON ${text.length > 80 ? text.slice(0, 80) + '…' : text}`,
    body: () => JSON.parse(text),
  });
  const valid = JSON.stringify(base());
  const cases: Case[] = [
    { name: 'body undefined', body: () => undefined },
    { name: 'body null', body: () => null },
    { name: 'body []', body: () => [] },
    { name: 'body [base]', body: () => [base()] },
    { name: 'body "x"', body: () => 'x' },
    { name: 'body 1', body: () => 1 },
    { name: 'body {}', body: () => ({}) },
    { name: 'null-prototype body', body: () => Object.assign(Object.create(null), base()), deferred: true },
    { name: 'form-like body (strings only)', body: () => ({ amount: '1500', product_pid: 'p', customer: 'x' }) },
    {
      name: 'all optional fields null',
      body: () => ({
        ...minimal(),
        plan_id: null,
        from_order: null,
        affiliate_id: null,
        return_url: null,
        cancel_url: null,
        coupon_code: null,
        tracking: null,
      }),
    },
    {
      name: 'customer with payment_number null',
      body: () => ({ ...minimal(), customer: { ...minimal().customer, payment_number: null } }),
    },
    {
      name: 'tracking with every utm null',
      body: () => ({
        ...minimal(),
        tracking: { utm_source: null, utm_campaign: null, utm_medium: null, utm_content: null, utm_term: null },
      }),
    },
    {
      name: 'extra properties everywhere',
      body: () => ({
        ...base(),
        x: 1,
        customer: { ...base().customer, x: { y: 1 } },
        tracking: { ...base().tracking, utm_id: 'x' },
      }),
    },
    json(valid),
    json(valid.replace('"amount":1500', '"amount":1500.00')),
    json(valid.replace('"amount":1500', '"amount":15e2')),
    json(valid.replace('"amount":1500', '"amount":1500,"amount":5')),
    json(valid.replace('"amount":1500', '"amount":5,"amount":1500')),
  ];
  for (const key of POLLUTION) {
    const extra = `${JSON.stringify(key)}:{"amount":5,"polluted":true}`;
    cases.push(json(`{${extra},${valid.slice(1)}`));
    cases.push(json(valid.replace('"customer":{', `"customer":{${extra},`)));
    cases.push(json(valid.replace('"tracking":{', `"tracking":{${extra},`)));
    cases.push(json(valid.replace('"customer":{', `"customer":{${JSON.stringify(key)}:"x",`)));
  }
  return cases;
}

const CASES = [...fieldCases(), ...extraCases()];

/** First difference between two values, prototypes and own keys (in order) included. */
function difference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
    return Object.is(a, b) ? undefined : `${path}: ${show(a)} vs ${show(b)}`;
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: prototypes differ`;
  const keysA = Reflect.ownKeys(a);
  const keysB = Reflect.ownKeys(b);
  if (keysA.join() !== keysB.join()) return `${path}: keys [${keysA.join()}] vs [${keysB.join()}]`;
  for (const key of keysA) {
    const found = difference(
      (a as Record<PropertyKey, unknown>)[key],
      (b as Record<PropertyKey, unknown>)[key],
      `${path}.${String(key)}`,
    );
    if (found) return found;
  }
  return undefined;
}

describe('CreateOrderDto fast accept path', () => {
  it('mutates every field the DTO declares, nested DTOs included (read from its metadata)', () => {
    expect(DTO_FIELDS).toContain('customer.email');
    expect(DTO_FIELDS).toContain('tracking.utm_term');
    expect(DTO_FIELDS.filter((path) => !(path in VALUES))).toEqual([]);
    expect(Object.keys(VALUES).filter((path) => !DTO_FIELDS.includes(path))).toEqual([]);
  });

  it(`agrees with class-transformer + class-validator on ${CASES.length} bodies`, async () => {
    const problems: string[] = [];
    let accepted = 0;
    let rejected = 0;
    for (const c of CASES) {
      const fast = fastAccept(c.body(), CreateOrderDto);
      const full = await fullPath(c.body());
      if (full.ok) accepted++;
      else rejected++;
      if (fast !== undefined) {
        if (!full.ok) problems.push(`${c.name}: fast path accepts what class-validator rejects`);
        else {
          const found = difference(fast, full.value);
          if (found) problems.push(`${c.name}: instances differ at ${found}`);
        }
      } else if (full.ok && !c.deferred) {
        problems.push(`${c.name}: valid, but the fast path leaves it to the full path`);
      }
    }
    expect(problems).toEqual([]);
    // The mutations must exercise both outcomes in numbers, or the comparison proves little.
    expect(accepted).toBeGreaterThan(300);
    expect(rejected).toBeGreaterThan(1000);
  });

  it('accepts the common bodies itself, with the DTO classes and from_order as a string', () => {
    const full = acceptCreateOrder({ ...base(), from_order: 123 });
    expect(full).toBeInstanceOf(CreateOrderDto);
    expect(full?.customer).toBeInstanceOf(CustomerPayloadDto);
    expect(full?.tracking).toBeInstanceOf(TrackingDto);
    expect(full?.from_order).toBe('123');
    const small = acceptCreateOrder(minimal());
    expect(small).toBeInstanceOf(CreateOrderDto);
    expect(Object.keys(small!)).toEqual(Object.keys(new CreateOrderDto()));
    expect(small?.tracking).toBeUndefined();
    expect(acceptCreateOrder({ ...minimal(), tracking: null, plan_id: null })).toMatchObject({
      tracking: null,
      plan_id: null,
    });
  });

  it('is what the global pipe uses, and the pipe still answers invalid bodies with class-validator’s errors', async () => {
    const fullTransform = jest.spyOn(ValidationPipe.prototype, 'transform');
    try {
      await expect(pipe.transform(base(), BODY)).resolves.toBeInstanceOf(CreateOrderDto);
      expect(fullTransform).not.toHaveBeenCalled();

      const invalid = { ...base(), amount: 9.999, customer: { ...base().customer, email: 'nope' } };
      const error = await pipe.transform(invalid, BODY).catch((e: unknown) => e);
      expect(fullTransform).toHaveBeenCalledTimes(1);
      expect(toErrorResponse(error)).toEqual({
        status: 422,
        headers: {},
        body: {
          status: 'error',
          message: 'Validation failed.',
          errors: {
            amount: ['amount must have at most two decimals.', 'amount must be at least 10.'],
            'customer.email': ['customer.email must be a valid email address.'],
          },
        },
      });
    } finally {
      fullTransform.mockRestore();
    }
  });
});
