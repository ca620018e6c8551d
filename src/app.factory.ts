import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import express, { NextFunction, Request, Response } from 'express';
import { AppModule, AppOptions } from './app.module';
import { BadRequestError, PayloadTooLargeError } from './common/errors/app-error';
import { createValidationPipe } from './common/http/validation.pipe';
import { AppConfig } from './config/app-config';
import { DatabaseConnection } from './database/database-connection';
import { createLogger, PinoNestLogger, requestLogging } from './logging';

/** Max JSON / form body (decisions §5); uploads have their own limit (`MAX_FILE_MB`). */
const BODY_LIMIT = '1mb';

export type RequestWithRawBody = Request & { rawBody?: Buffer };

/** body-parser failures become domain errors, so the one exception filter renders them. */
function bodyParserErrors(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  const type = (err as { type?: string }).type;
  if (type === 'entity.parse.failed') return next(new BadRequestError('Malformed JSON body.'));
  if (type === 'entity.too.large') return next(new PayloadTooLargeError());
  next(err);
}

/** Builds the application: used by `main.ts`, the worker and the tests alike. */
export async function createApp(
  config: AppConfig,
  connection: DatabaseConnection,
  options: AppOptions = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, connection, options), {
    bodyParser: false,
    bufferLogs: true,
  });
  const logger = createLogger(config);
  app.useLogger(new PinoNestLogger(logger));
  app.set('trust proxy', 'loopback');
  app.disable('x-powered-by');

  const healthUrl = `${config.paths.base}/v1/health`;
  app.use(requestLogging(logger, { ignore: (url) => url === healthUrl }));

  // Payment callbacks are verified against the exact bytes the gateway signed.
  const keepRaw = (req: RequestWithRawBody, _res: unknown, buf: Buffer) => {
    if (req.url.includes('/payments/')) req.rawBody = buf;
  };
  app.use(express.json({ limit: BODY_LIMIT, verify: keepRaw, type: ['application/json', 'application/*+json'] }));
  app.use(express.urlencoded({ extended: false, limit: BODY_LIMIT, verify: keepRaw }));
  app.use(bodyParserErrors);

  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  setupOpenApi(app, config);
  return app;
}

function setupOpenApi(app: NestExpressApplication, config: AppConfig): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Commerce API')
      .setDescription(
        'Commerce API for sellers of digital products: checkout sessions, discounts, product files, ' +
          'subscription plans, product review, customers, webhooks, API keys with scopes and OAuth 2.0. ' +
          'Every error has the body `{status: "error", message}` (plus `errors`, `missing_fields` or ' +
          'scope details where stated). Timestamps are UTC with six fractional digits; money is a JSON ' +
          'number with at most two decimals.',
      )
      .setVersion('1.0.0')
      .addServer(config.urls.base)
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'API key (`sk_…`) or OAuth access token (`at_…`)' })
      .build(),
  );
  SwaggerModule.setup(`${config.paths.base}/docs`, app, document, { jsonDocumentUrl: `${config.paths.base}/docs-json` });
}
