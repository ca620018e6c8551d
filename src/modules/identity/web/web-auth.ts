import type { Session, SessionData } from 'express-session';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';

/** The dashboard page needs a logged-in seller; the web exception filter answers 303 to the login page. */
export class LoginRequiredError extends Error {
  constructor(readonly returnTo: string) {
    super('Login required.');
  }
}

export interface SellerSession {
  sellerId: number;
  storeId: number;
}

export type WebSession = Session & Partial<SessionData>;

/** The dashboard session that `WebSessionMiddleware` (express-session) put on the Node request. */
export function sessionOf(req: FastifyRequest): WebSession | undefined {
  return (req.raw as IncomingMessage & { session?: WebSession }).session;
}

/** The seller of this dashboard session, or a {@link LoginRequiredError} that brings them back here. */
export function requireSeller(req: FastifyRequest, returnTo: string = req.originalUrl): SellerSession {
  const { sellerId, storeId } = sessionOf(req) ?? {};
  if (!sellerId || !storeId) throw new LoginRequiredError(returnTo);
  return { sellerId, storeId };
}

/**
 * decisions §2.1: `?next=` is honoured only for a path on the web surface, never another origin
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
