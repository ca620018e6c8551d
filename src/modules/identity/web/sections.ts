/**
 * The dashboard's sections, by the first part of their path under `{web_url}`: the list a page
 * belongs to. Switching test mode lands on it (a record of one mode is not the other's), and the
 * dashboard's error pages link back to it.
 */
const SECTIONS: Record<string, { label: string; modeScoped: boolean }> = {
  products: { label: 'Products', modeScoped: true },
  orders: { label: 'Orders', modeScoped: true },
  discounts: { label: 'Discounts', modeScoped: true },
  customers: { label: 'Customers', modeScoped: true },
  subscriptions: { label: 'Subscriptions', modeScoped: true },
  webhooks: { label: 'Webhooks', modeScoped: true },
  'settings/api': { label: 'API keys', modeScoped: true },
  apps: { label: 'OAuth apps', modeScoped: false },
  review: { label: 'Review', modeScoped: false },
  'settings/store': { label: 'Store', modeScoped: false },
  'settings/emails': { label: 'Emails', modeScoped: false },
  'settings/password': { label: 'Password', modeScoped: false },
};

export interface Section {
  /** The section's list, a path on the web surface (already prefixed). */
  href: string;
  label: string;
  /** Its records are the live store's or the test store's, as the "Test mode" switch says (README, *Test mode*). */
  modeScoped: boolean;
}

/**
 * The section of a dashboard address (`/web/orders/ORD-1/refund?x=1` → Orders at `/web/orders`),
 * or null for the home page and addresses outside every section.
 */
export function sectionOf(url: string, webPath: string): Section | null {
  const path = url.split(/[?#]/, 1)[0];
  if (webPath && path !== webPath && !path.startsWith(`${webPath}/`)) return null;
  const parts = path.slice(webPath.length).split('/').filter(Boolean);
  const key = parts[0] === 'settings' ? parts.slice(0, 2).join('/') : (parts[0] ?? '');
  const section = Object.prototype.hasOwnProperty.call(SECTIONS, key) ? SECTIONS[key] : undefined;
  return section ? { href: `${webPath}/${key}`, ...section } : null;
}
