import { applyDecorators } from '@nestjs/common';
import { ApiNotFound, ApiRefParam } from '../../common/http/api-docs';

/** Path `{id}` of products and plans: the numeric id or the public identifier (the OpenAPI description). */
export const ApiCatalogRef = (what: 'product' | 'plan') =>
  what === 'product'
    ? ApiRefParam('Product `id` or `product_pid`.', 'prod_4fQ9xZ2LmN8pR1sT')
    : ApiRefParam('Plan `id` or `plan_id`.', 'plan_7Hk2mQ9xW3nB5vLc');

/** Path `{id}` with its 404, documented once for every catalog route. */
export const ApiCatalogId = (what: 'product' | 'plan') =>
  applyDecorators(ApiCatalogRef(what), ApiNotFound(`Unknown ${what}, or one of another store.`));
