import { IsIn, IsNotEmpty, MaxLength, ValidateIf } from 'class-validator';
import type { ReviewDecision } from '../products/products.service';

/** The longest reviewer's note: it goes into the seller's email whole. */
export const REVIEW_REASON_MAX = 2000;

/**
 * The review page's decision form (catalog's README, *Review*), with the API's wording
 * (`<field> is required.`): a rejection needs a reason, an approval may carry a note. `reason` is the
 * trimmed text box, absent when left blank.
 */
export class ReviewDecisionForm {
  @IsIn(['approve', 'reject'], { message: 'decision must be approve or reject.' })
  decision: ReviewDecision;

  // A box left empty arrives as no reason at all (dashboard forms: an empty field is a missing one).
  @ValidateIf((form: ReviewDecisionForm) => form.decision === 'reject' || (form.reason ?? '') !== '')
  @IsNotEmpty({ message: 'reason is required.' })
  @MaxLength(REVIEW_REASON_MAX, { message: `reason must be at most ${REVIEW_REASON_MAX} characters.` })
  reason?: string;
}
