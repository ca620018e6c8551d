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

export const DEMO_TOOLKIT_TEXT = [
  'Invoice Toolkit',
  '===============',
  '',
  'This demo product stands for software sold with a license key.',
  '',
  '1. Your license key is on your order page and in your receipt.',
  '2. The app activates it once per computer (up to three):',
  '   POST /v1/licenses/activate {license_key, instance_name}',
  '3. It checks the key on start: POST /v1/licenses/validate {license_key, instance_id}',
  '4. Moving to a new computer? Deactivate the old one first:',
  '   POST /v1/licenses/deactivate {license_key, instance_id}',
  '',
  'Thank you for buying this demo product.',
  '',
].join('\n');
