import { Controller, Delete, Get, Inject, Options, Patch, Post, Put, UseFilters } from '@nestjs/common';
import { RouteConstraints } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import { NotFoundError } from '../../../common/errors/app-error';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { Public } from '../../identity';
import { CheckoutErrorsFilter } from './checkout-errors.filter';

/** `{pay_url}` itself (with or without its trailing slash) and anything under it. */
const EVERY_PATH = ['', '*'];

const HANDLERS = ['get', 'post', 'put', 'patch', 'delete', 'options'] as const;

/**
 * Any path under `{pay_url}` that no route answers, whatever the method (`/pay`, `/pay/`,
 * `/pay/nope`, `/pay/token/{t}/nope`): the checkout's 404 page for a browser and the contract's
 * `Resource not found.` for `Accept: application/json`, as the pay surface's other 404s answer
 * (`CheckoutErrorsFilter`), instead of the API's JSON to everyone. Routes match their exact paths
 * first, so these take only what nothing else does; the dashboard's `WebNotFoundController` does
 * the same under `{web_url}`.
 *
 * When the pay surface has a host of its own, its catch-all is limited to that host (a Fastify
 * route constraint): with four host names every surface is mounted at `/`, and an unconstrained
 * `/*` would be a second one beside the dashboard's, which Fastify refuses at start-up. The
 * constraint is set here, before the routes are registered, because the host is configuration;
 * one handler per method because Nest passes no constraint to an `@All()` route (a HEAD is the
 * GET's, as Fastify adds it).
 */
@ApiExcludeController()
@Public()
@UseFilters(CheckoutErrorsFilter)
@Controller()
export class PayNotFoundController {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const pay = new URL(config.urls.pay).host;
    const constraints = pay === new URL(config.urls.web).host ? {} : { host: pay };
    const prototype = PayNotFoundController.prototype;
    for (const name of HANDLERS) {
      RouteConstraints(constraints)(prototype, name, Object.getOwnPropertyDescriptor(prototype, name)!);
    }
  }

  @Get(EVERY_PATH)
  get(): never {
    throw new NotFoundError();
  }

  @Post(EVERY_PATH)
  post(): never {
    throw new NotFoundError();
  }

  @Put(EVERY_PATH)
  put(): never {
    throw new NotFoundError();
  }

  @Patch(EVERY_PATH)
  patch(): never {
    throw new NotFoundError();
  }

  @Delete(EVERY_PATH)
  delete(): never {
    throw new NotFoundError();
  }

  @Options(EVERY_PATH)
  options(): never {
    throw new NotFoundError();
  }
}
