/**
 * Affiliates' public surface: what other modules and the app wiring may import (CONTRIBUTING.md,
 * Layout). Everything else under affiliates/ is private to the module.
 */
export { Affiliate } from './affiliate.entity';
export { commissionFor } from './commission';
export { AffiliatesService } from './affiliates.service';
export { AffiliatesModule } from './affiliates.module';
