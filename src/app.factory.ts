import fastifyMultipart from '@fastify/multipart';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { clientErrorHandler } from './common/http/client-errors';
import { SwaggerModule } from '@nestjs/swagger';
import { DemoRepository, withDemoExamples } from './modules/demo';
import type { FastifyBodyParser, FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { parse as parseQueryString } from 'node:querystring';
import { AppModule, AppOptions } from './app.module';
import { BadRequestError } from './common/errors/app-error';
import { registerBodyTypeCheck } from './common/http/body-types';
import { exceedsDepth } from './common/http/input-text';
import { registerSecurityHeaders } from './common/http/security-headers';
import { rewriteUnrepresentableSegments } from './common/http/path-id';
import { createOpenApiDocument } from './common/http/openapi-document';
import { OpenApiAmendments } from './common/http/openapi-amendments';
import { RequestWithRawBody, wantsRawBody } from './common/http/raw-body';
import { createValidationPipe } from './common/http/validation.pipe';
import { AppConfig } from './config/app-config';
import { DatabaseConnection } from './database/database-connection';
import { SCOPES } from './modules/identity';
import { createLogger, PinoNestLogger, registerRequestLogging, requestIdOf } from './logging';

/** Max JSON / form body (the errors of the OpenAPI description); uploads have their own limit (`MAX_FILE_MB`). */
const BODY_LIMIT = 1024 * 1024;

export type App = NestFastifyApplication;

/**
 * Builds the application: used by `main.ts`, the worker and the tests alike. Call `start` (or
 * `app.init()` followed by `ready`) before serving.
 *
 * The HTTP layer is Fastify: on a 2-core machine Nest on Express spent about 0.3 ms of CPU on a
 * request that Nest on Fastify serves in 0.1 ms (docs/performance.md).
 */
export async function createApp(
  config: AppConfig,
  connection: DatabaseConnection,
  options: AppOptions = {},
): Promise<App> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT,
    trustProxy: 'loopback',
    routerOptions: {
      ignoreTrailingSlash: true,
      // Fastify's default cap on a path parameter is 100 characters, and a longer one is its own
      // 414 outside the contract. None is refused by length: a URL is bounded by Node's header
      // limit (16 KiB), and a path id that cannot exist is that resource's 404 (path-id.ts).
      maxParamLength: 16 * 1024,
    },
    logger: false,
    // A request Node cannot parse (over 16 KiB of URL and headers, say) in the contract's error shape.
    clientErrorHandler,
    genReqId: requestIdOf,
    requestIdHeader: false,
    // Path ids that cannot exist (U+0000, invalid UTF-8) are made unmatchable before routing (the errors of the OpenAPI description).
    rewriteUrl: (req: { url?: string }) => rewriteUnrepresentableSegments(req.url ?? '/'),
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, connection, options),
    adapter,
    {
      bodyParser: false,
      bufferLogs: true,
    },
  );
  const logger = createLogger(config);
  app.useLogger(new PinoNestLogger(logger));

  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  registerRequestLogging(fastify, logger, { ignore: (url) => url === `${config.paths.base}/v1/health` });
  registerBodyParsers(fastify);
  registerBodyTypeCheck(fastify, `${config.paths.base}/v1/`);
  // Uploads (`POST /v1/products/{id}/files`): parts are streamed by FileUploadInterceptor.
  await app.register(fastifyMultipart);
  // Helmet's headers and a CSP on every surface; the templates' inline blocks are hashed from
  // `src/modules/**/views` (copied beside the compiled modules by the build).
  registerSecurityHeaders(fastify, join(__dirname, 'modules'), {
    docs: `${config.paths.base}/docs`,
    cdnUrl: config.urls.cdn,
    cdnPath: config.paths.cdn,
  });

  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  setupOpenApi(app, config);
  return app;
}

/** `app.init()` and Fastify's own readiness: what a test needs before `getHttpServer()` serves. */
export async function ready(app: App): Promise<App> {
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

/**
 * JSON (`application/json`, `application/*+json`) and forms, as Express's body-parser read them: an
 * empty JSON body is `{}`, a bare value (`null`, `1`) is malformed; payment callbacks keep the
 * exact bytes the gateway signed (`rawBody`, on the routes marked `@KeepRawBody()`).
 * Any other type is left unread (the handler sees no body): the API's routes refuse it before
 * parsing (415, common/http/body-types.ts); the dashboard and checkout read only forms.
 */
function registerBodyParsers(fastify: FastifyInstance): void {
  const keepRaw = (req: RequestWithRawBody, body: Buffer) => {
    if (wantsRawBody(req)) req.rawBody = body;
  };
  const json: FastifyBodyParser<Buffer> = (req, body, done) => {
    keepRaw(req, body);
    if (body.length === 0) return done(null, {});
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return done(new BadRequestError('Malformed JSON body.'));
    }
    // Strict, as body-parser was: a request body is an object or an array, never a bare value.
    // Deeper than 32 levels is malformed too (the errors of the OpenAPI description): no DTO nests that far, and
    // class-transformer would recurse through all of it.
    if (value === null || typeof value !== 'object' || exceedsDepth(value))
      return done(new BadRequestError('Malformed JSON body.'));
    done(null, value);
  };
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, json);
  fastify.addContentTypeParser(/^application\/[\w.+-]+\+json$/, { parseAs: 'buffer' }, json);
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer' },
    (req, body: Buffer, done) => {
      keepRaw(req, body);
      done(null, { ...parseQueryString(body.toString('utf8')) });
    },
  );
  fastify.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
}

function setupOpenApi(app: App, config: AppConfig): void {
  const document = createOpenApiDocument(app, {
    title: 'Commerce API',
    description:
      'Commerce API for sellers of digital products: checkout sessions, discounts, product files, ' +
      'subscription plans, product review, customers, webhooks, API keys with scopes and OAuth 2.0. ' +
      'Every error has the body `{status: "error", message}` (plus `errors`, `missing_fields` or ' +
      'scope details where stated). Timestamps are UTC with six fractional digits; money is a JSON ' +
      'number with at most two decimals.\n\n' +
      "**Test mode.** Every store has a test side. A test key (`sk_test_…`, from the dashboard's " +
      '"Test mode" switch or `npm run cli -- api-key:create --test`) reads and writes test data only, a ' +
      "live key (`sk_…`) and every OAuth token live data only; the other mode's ids are 404. Test orders " +
      'always pay through the sandbox (its notice on the checkout), renew on the same sweep, email only ' +
      'to the outbox directory and count in no live figure. Every webhook payload carries `test` ' +
      '(boolean). `DELETE /v1/test-data` with a test key removes the test data.',
    version: '1.0.0',
    baseUrl: config.urls.base,
    authorizationUrl: `${config.urls.web}/oauth/authorize`,
    scopes: SCOPES,
  });
  app.get(OpenApiAmendments).apply(document);
  const fixed = withDemoExamples(document, null);
  const demo = DemoRepository.of(app);
  SwaggerModule.setup(`${config.paths.base}/docs`, app, fixed, {
    jsonDocumentUrl: `${config.paths.base}/docs-json`,
    // The request examples name the demo store of `npm run seed:demo` (README): its numeric ids are
    // this database's, read when the description is fetched; without the demo store, none.
    patchDocumentOnRequest: async (_req, _res, doc) => {
      const ids = await demo.ids().catch(() => null);
      return ids ? withDemoExamples(doc, ids) : doc;
    },
  });
}
