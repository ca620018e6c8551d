import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * The contract test (README, *Documenting an endpoint*), run by every e2e file: `createTestApp` records each answer
 * the app sends, and `close()` checks every one under `{base_url}/v1` against the schema that the
 * served `/docs-json` gives for its operation and status. An operation or a status the description
 * does not have fails too. Nothing is listed by hand, so the description cannot drift from the
 * server without a test failing.
 */

export interface Exchange {
  method: string;
  /** Path and query, as received. */
  url: string;
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The body when it was sent as a string or buffer (streams are not read). */
  body?: string;
}

type OpenApiDocument = { openapi: string; paths: Record<string, Record<string, any>>; components?: any };

export class ContractRecorder {
  readonly exchanges: Exchange[] = [];

  /** Before `ready()`: Fastify takes no hooks afterwards. */
  install(fastify: FastifyInstance): void {
    fastify.addHook('onSend', (request, reply, payload, done) => {
      const body =
        typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
      this.exchanges.push({
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        headers: { ...reply.getHeaders() } as Exchange['headers'],
        body,
      });
      done(null, payload);
    });
  }
}

/** Answers that come before any route is chosen, hence outside every operation. */
const UNROUTED: Record<number, string> = {
  400: 'Malformed JSON body.',
  404: 'Resource not found.',
  413: 'Payload too large.',
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Operation {
  template: string;
  method: string;
  operation: any;
}

/** Validates exchanges against one OpenAPI 3.1 document; compiled schemas are reused. */
export class ContractValidator {
  private readonly ajv: Ajv2020;
  private readonly routes: { pattern: RegExp; template: string; specificity: number }[];
  private readonly compiled = new Map<string, ValidateFunction>();
  private static readonly DOC_ID = 'https://contract.test/openapi.json';

  constructor(
    private readonly doc: OpenApiDocument,
    /** The path `{base_url}` is mounted at ('' at the root). */
    private readonly basePath: string,
  ) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    // OpenAPI's own formats that say nothing checkable about a JSON value.
    for (const format of ['binary', 'byte', 'int32', 'int64', 'float', 'double', 'password'])
      this.ajv.addFormat(format, true);
    this.ajv.addSchema({ ...doc, $id: ContractValidator.DOC_ID } as any);
    this.routes = Object.keys(doc.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      // A literal segment beats a parameter where two templates match the same path.
      specificity: template.split('/').filter((segment) => segment && !segment.startsWith('{')).length,
    }));
  }

  /** Failures, one line each; empty when every exchange fits the description. */
  check(exchanges: Exchange[]): string[] {
    const failures: string[] = [];
    for (const exchange of exchanges) {
      const problem = this.checkOne(exchange);
      if (problem) failures.push(`${exchange.method} ${exchange.url} → ${exchange.status}: ${problem}`);
    }
    return [...new Set(failures)];
  }

  private findOperation(method: string, path: string): Operation | 'no-path' | 'no-method' {
    const matches = this.routes
      .filter((route) => route.pattern.test(path))
      .sort((a, b) => b.specificity - a.specificity);
    if (!matches.length) return 'no-path';
    for (const { template } of matches) {
      const operation = this.doc.paths[template][method.toLowerCase()];
      if (operation) return { template, method: method.toLowerCase(), operation };
    }
    return 'no-method';
  }

  private checkOne(exchange: Exchange): string | undefined {
    const rawPath = exchange.url.split('?')[0];
    if (!rawPath.startsWith(`${this.basePath}/v1/`) && rawPath !== `${this.basePath}/v1`) return undefined;
    // The description's paths carry the mount path, as the requests do (its server is the origin).
    const path = rawPath.replace(/(.)\/+$/, '$1');
    if (!METHODS.includes(exchange.method.toLowerCase())) return undefined;
    const found = this.findOperation(exchange.method, path);
    if (typeof found === 'string') {
      // An unknown route (or method) is the contract's 404 (the errors of the OpenAPI description), outside any operation;
      // a malformed or oversized body is refused before routing (400 and 404 come first).
      if (this.isError(exchange, UNROUTED[exchange.status])) return undefined;
      return found === 'no-path'
        ? 'no operation in the description has this path'
        : 'the description has no such method on this path';
    }
    const responses = found.operation.responses ?? {};
    const key = [String(exchange.status), `${String(exchange.status)[0]}XX`, 'default'].find(
      (candidate) => responses[candidate],
    );
    if (!key)
      return `status ${exchange.status} is not documented for ${found.method.toUpperCase()} ${found.template} (documented: ${Object.keys(responses).join(', ')})`;
    const response = responses[key];
    const problems: string[] = [];

    for (const [name, header] of Object.entries<any>(response.headers ?? {})) {
      const value = headerValue(exchange.headers, name);
      if (value === undefined) {
        if (header.required) problems.push(`missing header ${name}`);
        continue;
      }
      if (header.schema) {
        const typed = header.schema.type === 'integer' || header.schema.type === 'number' ? Number(value) : value;
        const validate = this.validator(`header:${found.template}:${found.method}:${key}:${name}`, header.schema, true);
        if (!validate(typed))
          problems.push(`header ${name}: ${JSON.stringify(value)} ${this.ajv.errorsText(validate.errors)}`);
      }
    }

    // The headers the contract names are documented wherever they are sent, not only where required.
    for (const name of CONTRACT_HEADERS) {
      const documented = Object.keys(response.headers ?? {}).some((h) => h.toLowerCase() === name.toLowerCase());
      if (!documented && headerValue(exchange.headers, name) !== undefined)
        problems.push(`undocumented header ${name}`);
    }

    const media = response.content?.['application/json'];
    const contentType = String(headerValue(exchange.headers, 'content-type') ?? '');
    if (!media) {
      if (exchange.body && contentType.includes('json'))
        problems.push('a JSON body where the description documents none');
    } else if (!contentType.includes('application/json')) {
      problems.push(`content-type ${contentType || '(none)'} where application/json is documented`);
    } else if (exchange.body !== undefined) {
      let body: unknown;
      try {
        body = JSON.parse(exchange.body);
      } catch {
        problems.push('body is not JSON');
      }
      if (body !== undefined && media.schema) {
        const pointer = [
          'paths',
          found.template,
          found.method,
          'responses',
          key,
          'content',
          'application/json',
          'schema',
        ];
        const validate = this.validator(pointer.join(' '), pointer);
        if (!validate(body)) {
          const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message}`);
          problems.push(`body does not match the schema: ${errors.join('; ')} — body ${truncate(exchange.body)}`);
        }
      }
    }
    return problems.length ? problems.join('; ') : undefined;
  }

  private validator(cacheKey: string, schemaOrPointer: string[] | object, inline = false): ValidateFunction {
    let validate = this.compiled.get(cacheKey);
    if (!validate) {
      const schema = inline
        ? schemaOrPointer
        : {
            $ref: `${ContractValidator.DOC_ID}#/${(schemaOrPointer as string[]).map((part) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`,
          };
      validate = this.ajv.compile(schema);
      this.compiled.set(cacheKey, validate);
    }
    return validate;
  }

  private isError(exchange: Exchange, message: string | undefined): boolean {
    if (message === undefined) return false;
    try {
      const body = JSON.parse(exchange.body ?? '');
      return body?.status === 'error' && body?.message === message;
    } catch {
      return false;
    }
  }
}

/** Response headers of the contract's own (the OpenAPI description documents each where it is sent). */
const CONTRACT_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'Idempotent-Replayed',
  'WWW-Authenticate',
];

function headerValue(headers: Exchange['headers'], name: string): string | undefined {
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase());
  if (!entry || entry[1] === undefined) return undefined;
  return Array.isArray(entry[1]) ? entry[1].join(', ') : String(entry[1]);
}

function truncate(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** Throws one error listing every exchange that breaks the description. */
export function assertContract(doc: OpenApiDocument, basePath: string, exchanges: Exchange[]): void {
  const failures = new ContractValidator(doc, basePath).check(exchanges);
  if (failures.length) {
    throw new Error(
      `${failures.length} response(s) do not match the OpenAPI description (see README, "Documenting an endpoint"):\n` +
        failures.map((failure) => `  - ${failure}`).join('\n'),
    );
  }
}
