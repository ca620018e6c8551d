/** The demo products' files: short texts the demo store sells (stored as uploads). */
export const DEMO_GUIDE_TEXT = [
  'Digital Marketing Guide',
  '=======================',
  '',
  '1. Know who you sell to: one sentence about your buyer.',
  '2. One product, one page, one price.',
  '3. Collect emails before you launch; write to them every week.',
  '4. Take payment where your buyers already pay (M-Pesa, e-Mola, card).',
  '5. Thank every buyer, and ask what they want next.',
  '',
  'Thank you for buying this demo product.',
  '',
].join('\n');

export const DEMO_CHECKLIST_TEXT = [
  'Launch Checklist',
  '================',
  '',
  '[ ] The sale page says who it is for, what they get and the price.',
  '[ ] A test order was paid and refunded.',
  '[ ] The receipt email reads well on a phone.',
  '[ ] The download opens on a phone.',
  '',
].join('\n');
