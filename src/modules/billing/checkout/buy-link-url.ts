/** The buy link of a product (README, *Buy links*): `{pay_url}/buy/{product_pid}`; the dashboard shows it on the product's page. */
export const buyLinkUrl = (payUrl: string, pid: string): string => `${payUrl}/buy/${encodeURIComponent(pid)}`;
