import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Injectable,
  SetMetadata,
  Type,
  UseGuards,
} from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import { NotFoundError } from '../errors/app-error';

/** Finds the path's resource of the caller's store: null (or a thrown 404) when there is none. */
export type ResourceFinder<S> = (service: S, storeId: number, ref: string) => Promise<unknown>;

interface ResourceFirstOptions {
  service: Type<unknown>;
  find: ResourceFinder<never>;
  param: string;
}

const RESOURCE_FIRST = 'resourceFirst';

/**
 * The order of checks (README, *Conventions*): 404 for a resource the caller's store does not have
 * comes before 422 for the body sent with it. Route guards run before the body is validated, so a
 * route that takes a path id and a body looks its resource up here first: another store's product
 * with a body of the wrong shape is 404, as without a body. One read more on those writes only.
 */
export function ResourceFirst<S>(service: Type<S>, find: ResourceFinder<S>, param = 'id') {
  return applyDecorators(
    SetMetadata(RESOURCE_FIRST, { service, find, param } as ResourceFirstOptions),
    UseGuards(ResourceFirstGuard),
  );
}

@Injectable()
export class ResourceFirstGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly moduleRef: ModuleRef,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const options = this.reflector.get<ResourceFirstOptions | undefined>(RESOURCE_FIRST, context.getHandler());
    const req = context
      .switchToHttp()
      .getRequest<{ principal?: { storeId: number }; params: Record<string, string> }>();
    // Without a caller the authentication guard has answered already.
    if (!options || !req.principal) return true;
    const service = this.moduleRef.get(options.service, { strict: false });
    const found = await (options.find as ResourceFinder<unknown>)(
      service,
      req.principal.storeId,
      req.params[options.param] ?? '',
    );
    if (found === null || found === undefined) throw new NotFoundError();
    return true;
  }
}
