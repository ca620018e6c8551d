import { Cents } from '../../../common/money';
import type { Product, ProductReviewStatus } from './product.entity';

/**
 * The review state machine of `status_2` (README, *Choices where the contract is silent*): draft → pending on publish → approved or
 * rejected by review. A rejected product may be submitted again once fixed.
 */
export type ReviewTrigger = 'publish' | 'approve' | 'reject';

const TRANSITIONS: Record<ReviewTrigger, Partial<Record<ProductReviewStatus, ProductReviewStatus>>> = {
  publish: { draft: 'pending', rejected: 'pending' },
  approve: { pending: 'approved' },
  reject: { pending: 'rejected' },
};

/** The next state, or null when `trigger` is not allowed from `from`. */
export function nextReviewStatus(from: ProductReviewStatus, trigger: ReviewTrigger): ProductReviewStatus | null {
  return TRANSITIONS[trigger][from] ?? null;
}

/** Stores selling in MZN need a price of at least 50 to go to review. */
export const MZN_MINIMUM_PRICE: Cents = 5000;

export interface PublishFacts {
  product: Pick<
    Product,
    'name' | 'type' | 'price' | 'salePageUrl' | 'imageUrl' | 'category' | 'subcategory' | 'contactNumber'
  >;
  currency: string;
  fileCount: number;
  planCount: number;
}

const blank = (value: string | null | undefined): boolean => !value || value.trim() === '';

/**
 * Every unmet requirement (OpenAPI: `POST /v1/products/{id}/publish`), keyed by the names (README, *Choices where the contract is silent*), so the seller sees
 * all of them at once rather than one per attempt.
 */
export function missingPublishFields({
  product,
  currency,
  fileCount,
  planCount,
}: PublishFacts): Record<string, string> {
  const missing: Record<string, string> = {};
  if (blank(product.name)) missing.name = 'The product needs a name.';
  if (product.price === null || product.price <= 0) {
    missing.price = 'The product needs a price.';
  } else if (currency === 'MZN' && product.price < MZN_MINIMUM_PRICE) {
    missing.price = 'The price must be at least 50 MZN.';
  }
  if (blank(product.salePageUrl)) missing.sale_page = 'The product needs a sale page (sale_page_url).';
  if (blank(product.imageUrl)) missing.image = 'The product needs an image (image_url).';
  if (blank(product.category)) missing.category = 'The product needs a category.';
  if (blank(product.subcategory)) missing.subcategory = 'The product needs a subcategory.';
  if (blank(product.contactNumber)) missing.contact_number = 'The product needs a contact number.';
  if (fileCount === 0) missing.files = 'The product needs at least one file.';
  if (product.type === 'recurring' && planCount === 0) missing.plans = 'A recurring product needs at least one plan.';
  return missing;
}
