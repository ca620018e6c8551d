import { centsToNumber } from '../../common/money';
import { formatTimestamp } from '../../common/time';
import { Affiliate } from './affiliate.entity';
import { AffiliateDto } from './dto/affiliate-response.dto';

export function toAffiliateDto(affiliate: Affiliate): AffiliateDto {
  return {
    id: affiliate.id,
    name: affiliate.name,
    email: affiliate.email,
    commission_percent: centsToNumber(affiliate.commissionPercent),
    created_at: formatTimestamp(affiliate.createdAt),
    updated_at: formatTimestamp(affiliate.updatedAt),
  };
}
