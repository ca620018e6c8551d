import type { Page } from 'playwright-core';

/**
 * Collects every Content-Security-Policy violation a page reports: the `securitypolicyviolation`
 * events of the document (listened for from an init script, which the policy does not govern) and
 * Chromium's own console errors ("Refused to …"). A page that works under its policy reports none.
 */
export async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(text))
      violations.push(`${page.url()}: ${text}`);
  });
  await page.exposeFunction('__reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (e) => {
      window.__reportCspViolation(location.href + ': ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' (' + e.sourceFile + ':' + e.lineNumber + ')');
    });`,
  });
  return violations;
}
