import { centsToNumber } from '../../../common/money';
import { formatTimestamp } from '../../../common/time';
import { OrderBumpDto } from './dto/order-bump-response.dto';
import { OfferedBump } from './order-bumps.repository';

export function toOrderBumpDto(bump: OfferedBump, productPid: string): OrderBumpDto {
  return {
    id: bump.id,
    product_pid: productPid,
    bump_product: { id: bump.bumpProduct.id, pid: bump.bumpProduct.pid, name: bump.bumpProduct.name },
    price: centsToNumber(bump.price),
    created_at: formatTimestamp(bump.createdAt),
  };
}
