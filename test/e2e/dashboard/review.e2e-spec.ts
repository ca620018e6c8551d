import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import TestAgent from 'supertest/lib/agent';
import { createSeller, TestSeller } from '../../utils/auth';
import { runCli } from '../../utils/run-process';
import { createTestApp, TestApp } from '../../utils/test-app';
import { insertFile, insertProduct } from '../billing/fixtures';
import { csrfFrom, submit, webAgent } from '../identity/support/web';
import { waitUntil } from '../webhooks/helpers';

// Each CLI run starts the application in its own process: slow on a busy machine.
jest.setTimeout(300_000);

/**
 * Dashboard → Review (catalog's README, *Review*): the operator role granted from the CLI, the queue
 * of pending products across stores, approve and reject through the CLI's service with the seller
 * emailed (the `.eml` outbox), and everyone else answered as for an unknown page.
 */
describe('dashboard: the operators’ review queue', () => {
  let t: TestApp;
  const dataDir = mkdtempSync(join(tmpdir(), 'review-pages-'));
  const outbox = join(dataDir, 'outbox');
  let operator: TestSeller;
  let sellerA: TestSeller;
  let sellerB: TestSeller;

  beforeAll(async () => {
    t = await createTestApp({ env: { DATA_DIR: dataDir, MAIL_RETRY_DELAY_SECONDS: '1' } });
    operator = await createSeller(t);
    sellerA = await createSeller(t, { brand: 'Aurora' });
    sellerB = await createSeller(t, { currency: 'USD' });
  });
  afterAll(() => t.close());

  async function loggedIn(seller: TestSeller): Promise<TestAgent> {
    const agent = webAgent(t);
    const res = await submit(agent, '/web/login', '/web/login', { email: seller.email, password: seller.password });
    expect(res.status).toBe(303);
    return agent;
  }

  /** A product as a seller submits it: complete, with a file, `status_2` pending (or as told). */
  async function pendingProduct(
    seller: TestSeller,
    values: { name?: string; price?: string; status?: string; description?: string } = {},
  ): Promise<{ id: number; pid: string; name: string }> {
    const product = await insertProduct(t, seller.storeId, { name: values.name, price: values.price ?? '150.00' });
    await t.dataSource.query(
      `UPDATE products SET status_2 = $2, description = $3, sale_page_url = $4, category = 'courses',
         subcategory = 'photography', contact_number = '+258841234567' WHERE id = $1`,
      [
        product.id,
        values.status ?? 'pending',
        values.description ?? 'Ten lessons on light.',
        `https://sales.example.com/${product.pid}`,
      ],
    );
    await insertFile(t, seller.storeId, product.id, {
      name: 'lesson-1.pdf',
      externalUrl: 'https://f.example.com/1.pdf',
    });
    await insertFile(t, seller.storeId, product.id, {
      name: 'lesson-2.pdf',
      externalUrl: 'https://f.example.com/2.pdf',
    });
    return product;
  }

  async function reviewOf(pid: string): Promise<{ status_2: string; review_reason: string | null }> {
    const [row] = await t.dataSource.query(`SELECT status_2, review_reason FROM products WHERE pid = $1`, [pid]);
    return row;
  }

  /** The `.eml` files of this product's review emails (notifications' README: `product_review.product-<id>.<event>`). */
  const reviewEmails = (product: { id: number }) =>
    existsSync(outbox)
      ? readdirSync(outbox).filter((name) => name.startsWith(`product_review.product-${product.id}.`))
      : [];

  /** The seller's email about this product's review, once written to the outbox. */
  async function emailAbout(product: { id: number; pid: string }) {
    await waitUntil(
      () => reviewEmails(product).length > 0,
      30_000,
      () => `the review email of ${product.pid}`,
    );
    const files = reviewEmails(product);
    expect(files).toHaveLength(1);
    return simpleParser(readFileSync(join(outbox, files[0])));
  }

  it('operator:grant from the CLI makes a seller an operator; an unknown email fails; operator:revoke takes it back', async () => {
    const env = { DATABASE_URL: t.config.database.url!, DATA_DIR: dataDir };
    const granted = await runCli(['operator:grant', '--email', operator.email.toUpperCase()], env);
    expect(granted.stderr).toBe('');
    expect(granted.code).toBe(0);
    expect(granted.json).toEqual({ email: operator.email, operator: true });

    const unknown = await runCli(['operator:grant', '--email', 'nobody@example.com'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^Error: No seller with email nobody@example.com$/);

    const other = await createSeller(t);
    expect((await runCli(['operator:grant', '--email', other.email], env)).json).toEqual({
      email: other.email,
      operator: true,
    });
    const agent = await loggedIn(other);
    await agent.get('/web/review').expect(200);
    expect((await runCli(['operator:revoke', '--email', other.email], env)).json).toEqual({
      email: other.email,
      operator: false,
    });
    // The same session: the role is read on each request.
    const after = await agent.get('/web/review').expect(404);
    expect(after.text).not.toContain('data-testid="nav-review"');
  });

  it('without a session: 303 to the login page, as every dashboard page', async () => {
    const res = await webAgent(t).get('/web/review?page=2').expect(303);
    expect(res.headers.location).toBe(`/web/login?next=${encodeURIComponent('/web/review?page=2')}`);
  });

  it('a seller who is not an operator gets the 404 page of an unknown address, and no Review link', async () => {
    const product = await pendingProduct(sellerA);
    const agent = await loggedIn(sellerA);
    const unknown = await agent.get('/web/no-such-page').expect(404);
    const page = await agent.get('/web/review').expect(404);
    expect(page.text).toBe(unknown.text.replace('/web/no-such-page', '/web/review'));
    expect(page.text).toContain('Page not found');
    expect(page.text).not.toContain(product.pid);
    await agent.get(`/web/review/${product.pid}/approve`).expect(404);
    const home = await agent.get('/web/').expect(200);
    expect(home.text).not.toContain('data-testid="nav-review"');
    const posted = await agent
      .post(`/web/review/${product.pid}/approve`)
      .type('form')
      .send({ _csrf: csrfFrom(home.text) })
      .expect(404);
    expect(posted.text).toContain('Page not found');
    expect(await reviewOf(product.pid)).toEqual({ status_2: 'pending', review_reason: null });
  });

  it('lists the pending products of every store with what a reviewer needs, linked from the navigation', async () => {
    const a = await pendingProduct(sellerA, {
      name: 'Light course',
      price: '1250.50',
      description: 'Ten lessons <b>on</b> light.',
    });
    const b = await pendingProduct(sellerB, { name: 'Sound course', price: '49.00' });
    const draft = await pendingProduct(sellerA, { name: 'Draft course', status: 'draft' });
    const approved = await pendingProduct(sellerB, { name: 'Old course', status: 'approved' });
    const agent = await loggedIn(operator);
    const home = await agent.get('/web/').expect(200);
    expect(home.text).toMatch(/<a href="\/web\/review" data-testid="nav-review">Review<\/a>/);
    const page = await agent.get('/web/review').expect(200);
    for (const p of [a, b]) expect(page.text).toContain(`data-pid="${p.pid}"`);
    for (const p of [draft, approved]) expect(page.text).not.toContain(p.pid);
    const itemOf = (pid: string) => page.text.slice(page.text.indexOf(`data-pid="${pid}"`)).split('</section>')[0];
    const itemA = itemOf(a.pid);
    expect(itemA).toContain('Light course');
    expect(itemA).toMatch(
      /data-testid="review-store">Store [0-9a-f]+ <span class="muted">· Seller [0-9a-f]+ &lt;seller-/,
    );
    expect(itemA).toContain('data-testid="review-price" class="nowrap">1,250.50 MZN');
    expect(itemA).toContain('data-testid="review-files">2 files');
    expect(itemA).toContain('Ten lessons &lt;b&gt;on&lt;/b&gt; light.');
    expect(itemA).toContain(`href="https://sales.example.com/${a.pid}"`);
    expect(itemOf(b.pid)).toContain('49.00 USD');
    // Each decision goes through a confirmation page: plain links here, no form.
    expect(itemA).toContain(`href="/web/review/${a.pid}/approve"`);
    expect(itemA).toContain(`href="/web/review/${a.pid}/reject"`);
    expect(itemA).not.toContain('<form');
  });

  it('paginates with ?page=: 20 a page, and a page past the last says so with a link back', async () => {
    const before = Number(
      /(\d+) products? pending review/.exec((await (await loggedIn(operator)).get('/web/review')).text)![1],
    );
    for (let i = 0; i < 21 - before; i += 1) await pendingProduct(sellerB, { name: `Filler ${i}` });
    const agent = await loggedIn(operator);
    const first = await agent.get('/web/review').expect(200);
    expect(first.text).toContain('21 products pending review');
    expect(first.text.match(/data-testid="review-item"/g)).toHaveLength(20);
    expect(first.text).toContain('Page 1 of 2');
    const second = await agent.get('/web/review?page=2').expect(200);
    expect(second.text.match(/data-testid="review-item"/g)).toHaveLength(1);
    const past = await agent.get('/web/review?page=7').expect(200);
    expect(past.text).toContain('There are no products on page 7; 21 products are pending review on 2 pages.');
    expect(past.text).toContain('href="/web/review?page=2"');
    expect(past.text).not.toContain('No product is pending review');
  });

  it('reject needs a reason: a field error beside it, nothing changed, no email', async () => {
    const product = await pendingProduct(sellerA, { name: 'Vague course' });
    const agent = await loggedIn(operator);
    const form = await agent.get(`/web/review/${product.pid}/reject`).expect(200);
    expect(form.text).toContain(`action="/web/review/${product.pid}/reject"`);
    expect(form.text).toContain('Reason <span class="muted">(required, sent to the seller)</span>');
    const res = await agent
      .post(`/web/review/${product.pid}/reject`)
      .type('form')
      .send({ _csrf: csrfFrom(form.text), reason: '   ' })
      .expect(422);
    expect(res.text).toContain('<span class="field-error block" data-testid="error-reason">reason is required.</span>');
    expect(res.text).toContain('aria-invalid=true');
    expect(await reviewOf(product.pid)).toEqual({ status_2: 'pending', review_reason: null });
    await new Promise((r) => setTimeout(r, 500));
    expect(reviewEmails(product)).toEqual([]);
  });

  it('a POST without the CSRF token is 403 and changes nothing', async () => {
    const product = await pendingProduct(sellerA);
    const agent = await loggedIn(operator);
    await agent.post(`/web/review/${product.pid}/approve`).type('form').send({}).expect(403);
    await agent
      .post(`/web/review/${product.pid}/reject`)
      .type('form')
      .send({ _csrf: 'forged', reason: 'No.' })
      .expect(403);
    expect(await reviewOf(product.pid)).toEqual({ status_2: 'pending', review_reason: null });
  });

  it('approve: status_2 approved through the CLI’s service, the seller emailed, the queue says so', async () => {
    const product = await pendingProduct(sellerA, { name: 'Good course' });
    const agent = await loggedIn(operator);
    const form = await agent.get(`/web/review/${product.pid}/approve`).expect(200);
    expect(form.text).toContain('Note to the seller <span class="muted">(optional)</span>');
    const res = await agent
      .post(`/web/review/${product.pid}/approve`)
      .type('form')
      .send({ _csrf: csrfFrom(form.text), reason: '' })
      .expect(303);
    expect(res.headers.location).toBe(`/web/review?reviewed=${product.pid}`);
    expect(await reviewOf(product.pid)).toEqual({ status_2: 'approved', review_reason: null });
    const after = await agent.get(res.headers.location as string).expect(200);
    expect(after.text).toContain('“Good course” is approved. The seller is emailed the decision.');
    expect(after.text).not.toContain(`data-pid="${product.pid}"`);
    const api = await t.http.get(`/v1/products/${product.pid}`).set(sellerA.auth).expect(200);
    expect(api.body.product.status_2).toBe('approved');

    const email = await emailAbout(product);
    expect(email.to && !Array.isArray(email.to) && email.to.value).toEqual([
      { address: sellerA.email, name: expect.stringMatching(/^Seller /) },
    ]);
    expect(email.subject).toBe('Review of Good course: approved');
    expect(email.text).toContain(`Your product Good course (${product.pid}) was approved in review.`);
    expect(email.text).toContain(`${t.config.urls.web}/products/${product.pid}`);
  });

  it('reject with a reason: status_2 rejected, the reason kept and emailed; a second decision finds it decided', async () => {
    const product = await pendingProduct(sellerB, { name: 'Blurry course' });
    const agent = await loggedIn(operator);
    const form = await agent.get(`/web/review/${product.pid}/reject?page=1`).expect(200);
    const csrf = csrfFrom(form.text);
    const reason = 'The sale page shows another product.\nUse your own images.';
    await agent.post(`/web/review/${product.pid}/reject`).type('form').send({ _csrf: csrf, reason }).expect(303);
    expect(await reviewOf(product.pid)).toEqual({ status_2: 'rejected', review_reason: reason });
    // The seller finds the reason on the product's page too.
    const own = await (await loggedIn(sellerB)).get(`/web/products/${product.pid}`).expect(200);
    expect(own.text).toContain(`data-testid="review-note">${reason}</dd>`);

    const email = await emailAbout(product);
    expect(email.subject).toBe('Review of Blurry course: not approved');
    expect(email.text).toContain('was not approved in review');
    expect(email.text).toContain('The sale page shows another product.\nUse your own images.');
    expect(email.html).toContain('The sale page shows another product.');

    // Decided already (another operator, the CLI): a clear message, nothing changed.
    const again = await agent.post(`/web/review/${product.pid}/approve`).type('form').send({ _csrf: csrf }).expect(409);
    expect(again.text).toContain(
      `“Blurry course” (${product.pid}) is no longer pending review: it is rejected now. Nothing was changed.`,
    );
    expect(await reviewOf(product.pid)).toEqual({ status_2: 'rejected', review_reason: reason });
    const page = await agent.get(`/web/review/${product.pid}/reject`).expect(409);
    expect(page.text).toContain('Nothing was changed.');
    await agent.get('/web/review/prd_unknown/approve').expect(404);
    await agent.get(`/web/review/${product.pid}/maybe`).expect(404);
  });

  it('product:review from the CLI emails the seller too, with its optional --reason', async () => {
    const product = await pendingProduct(sellerA, { name: 'CLI course' });
    const res = await runCli(
      ['product:review', '--product', product.pid, '--decision', 'reject', '--reason', 'Missing table of contents.'],
      { DATABASE_URL: t.config.database.url!, DATA_DIR: dataDir },
    );
    expect(res.stderr).toBe('');
    expect(res.json).toEqual({ product_pid: product.pid, status_2: 'rejected' });
    const email = await emailAbout(product);
    expect(email.text).toContain('Missing table of contents.');
  });
});
