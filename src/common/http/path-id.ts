import { PipeTransform } from '@nestjs/common';
import { NotFoundError } from '../errors/app-error';

/** PostgreSQL `integer`: no serial id is larger. */
export const MAX_INT4 = 2_147_483_647;

/**
 * A path id that is not a positive int4 cannot name a row: null, so callers answer 404 like for a
 * missing row instead of letting PostgreSQL fail with a 500.
 */
export function parseIntId(raw: string): number | null {
  if (!/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= MAX_INT4 ? id : null;
}

/** The id as a number, or 404 `Resource not found.` (the dashboard's pages, which read their ids by hand). */
export function requireIntId(raw: string): number {
  const id = parseIntId(raw);
  if (id === null) throw new NotFoundError();
  return id;
}

/** `@Param('id', IntIdPipe)`: the id as a number, or 404 `Resource not found.`. */
export const IntIdPipe: PipeTransform<string, number> = {
  transform(value: string): number {
    const id = parseIntId(value);
    if (id === null) throw new NotFoundError();
    return id;
  },
};

/**
 * What a path segment that cannot name anything becomes: no id, pid, code, order number, token or
 * file name has this form (identifiers are letters, digits, `-` and `_`), and it is safe for
 * PostgreSQL, HTML and headers alike.
 */
export const UNMATCHABLE_SEGMENT = '~';

/**
 * Fastify's `rewriteUrl`, the one place path ids enter (the errors of the OpenAPI description): a segment that is not valid
 * percent-encoded UTF-8 (`%FF`, an encoded surrogate) or that decodes to U+0000 cannot be any
 * resource's id, so it becomes {@link UNMATCHABLE_SEGMENT} before routing. The route still
 * matches, its guards still run first (401, 403), and its own lookup answers the 404 of that
 * resource (a JSON error, a 404 page) instead of PostgreSQL failing or the router answering 400.
 * Ids past 2^31−1 need no rewrite: every lookup parses them with {@link parseIntId}. A URL
 * without `%` before its query is returned as is, at the cost of one `indexOf`.
 */
export function rewriteUnrepresentableSegments(url: string): string {
  const percent = url.indexOf('%');
  if (percent === -1) return url;
  const query = url.indexOf('?');
  if (query !== -1 && query < percent) return url;
  const path = query === -1 ? url : url.slice(0, query);
  const segments = path.split('/');
  let changed = false;
  for (let i = 0; i < segments.length; i++) {
    if (segments[i].includes('%') && !isRepresentableSegment(segments[i])) {
      segments[i] = UNMATCHABLE_SEGMENT;
      changed = true;
    }
  }
  if (!changed) return url;
  return segments.join('/') + (query === -1 ? '' : url.slice(query));
}

function isRepresentableSegment(segment: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return false;
  }
  return !decoded.includes('\u0000');
}
