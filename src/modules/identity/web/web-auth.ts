import type { Session, SessionData } from 'express-session';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';

/** The dashboard page needs a logged-in seller; the web exception filter answers 303 to the login page. */
export class LoginRequiredError extends Error {
  constructor(readonly returnTo: string) {
    super('Login required.');
  }
}

/**
 * The seller of a dashboard session and the store its pages show: the live store, or its test store
 * while the "Test mode" switch is on (README, *Test mode*).
 */
export interface SellerSession {
  sellerId: number;
  /** The current store: what every page reads and writes. */
  storeId: number;
  /** The live store, whatever the switch says (OAuth apps). */
  liveStoreId: number;
  /** The "Test mode" switch is on: `storeId` is the test store. */
  test: boolean;
  /**
   * May review every store's products (`operator:grant`; identity's README, *Operators*). Read from
   * the seller's row on each request by `SessionGuard`, so a grant or a revoke counts at once.
   */
  operator: boolean;
}

export type WebSession = Session & Partial<SessionData>;

/** Metadata of `@AnonymousPage()` and `@ReturnAfterLogin()` (dashboard-pages.ts), read by `SessionGuard`. */
export const ANONYMOUS_PAGE_KEY = 'web:anonymous';
export const RETURN_AFTER_LOGIN_KEY = 'web:return-after-login';

/** A dashboard request once `SessionGuard` let it through: `seller` is set unless the page is anonymous. */
export type SellerRequest = FastifyRequest & { seller?: SellerSession };

/** The dashboard session that `WebSessionMiddleware` (express-session) put on the Node request. */
export function sessionOf(req: FastifyRequest): WebSession | undefined {
  const raw = req.raw as IncomingMessage & { [SESSION_LOAD_ERROR]?: unknown };
  // The session store could not be read (the database is down): the page answers that error
  // (503 with Retry-After, through the dashboard's filter), not "logged out".
  if (raw[SESSION_LOAD_ERROR] !== undefined) throw raw[SESSION_LOAD_ERROR];
  return loadedSessionOf(req);
}

/** The session as loaded, or none when the store could not be read: for the error page's layout. */
export function loadedSessionOf(req: FastifyRequest): WebSession | undefined {
  return (req.raw as IncomingMessage & { session?: WebSession }).session;
}

/** Where the session middleware leaves the store's error for {@link sessionOf} to raise. */
export const SESSION_LOAD_ERROR = Symbol('sessionLoadError');

/**
 * The current store of this dashboard session (the test store while the switch is on), or null
 * without a logged-in seller (`operator` is false here; `SessionGuard` reads the real one). `SessionGuard` puts it on the request (`@CurrentSeller()`,
 * `sellerOf(req)`): every dashboard page scopes its reads and writes to its `storeId`.
 */
export function currentStoreOf(req: FastifyRequest): SellerSession | null {
  const { sellerId, storeId, testStoreId } = sessionOf(req) ?? {};
  if (!sellerId || !storeId) return null;
  return testStoreId
    ? { sellerId, storeId: testStoreId, liveStoreId: storeId, test: true, operator: false }
    : { sellerId, storeId, liveStoreId: storeId, test: false, operator: false };
}

/** The same seller on the live store whatever the switch says: OAuth apps and grants are live only. */
export function liveSession(seller: SellerSession): SellerSession {
  return { ...seller, storeId: seller.liveStoreId, test: false };
}

/**
 * The seller that `SessionGuard` found in the session of this dashboard request (the same as
 * `@CurrentSeller()`, for a controller's private helpers that get the request).
 */
export function sellerOf(req: FastifyRequest): SellerSession {
  const seller = (req as SellerRequest).seller;
  if (!seller) throw new Error('sellerOf used on a dashboard route open without a session');
  return seller;
}

/**
 * `?next=` is honoured only for a path on the web surface, never another origin
 * (`//evil.example`, `/\evil`, absolute URLs) or another surface.
 */
export function safeNext(next: unknown, webPath: string): string | undefined {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.includes('\\'))
    return undefined;
  let url: URL;
  try {
    url = new URL(next, 'http://web.invalid');
  } catch {
    return undefined;
  }
  if (url.origin !== 'http://web.invalid') return undefined;
  const onSurface = !webPath || url.pathname === webPath || url.pathname.startsWith(`${webPath}/`);
  return onSurface ? `${url.pathname}${url.search}` : undefined;
}

/** Form checkboxes arrive as one string or an array of them. */
export function formList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' && value ? [value] : [];
}

export function formString(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}
