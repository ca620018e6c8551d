import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Content-Security-Policy hashes of every inline `<style>` and `<script>` block of the server-
 * rendered pages (the `views/*.eta` templates under `root`), so the pages keep their inline blocks
 * and the policy still names exactly what may run: a block injected into a page would not match.
 * A block holding template tags (`<%`) differs per page and cannot be hashed; it needs a file.
 */
export function inlineBlockHashes(root: string): { styles: string[]; scripts: string[] } {
  const styles = new Set<string>();
  const scripts = new Set<string>();
  for (const file of viewFiles(root)) {
    const text = readFileSync(file, 'utf8');
    for (const [, tag, body] of text.matchAll(/<(style|script)(?:\s[^>]*)?>([\s\S]*?)<\/\1>/g)) {
      if (!body.trim() || body.includes('<%')) continue;
      (tag === 'style' ? styles : scripts).add(
        `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`,
      );
    }
  }
  return { styles: [...styles].sort(), scripts: [...scripts].sort() };
}

function viewFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...viewFiles(path));
    else if (entry.name.endsWith('.eta') && dir.split(/[\\/]/).includes('views')) out.push(path);
  }
  return out;
}

export interface SecurityHeaderPaths {
  /** Swagger UI (`{base}/docs`): its bundle styles elements inline, so it gets its own policy. */
  docs: string;
  /** Uploaded files (`{cdn_url}`): sellers link and embed them from their own sites. */
  cdnUrl: string;
  /** The path `{cdn_url}` is mounted at; empty when it has a host of its own. */
  cdnPath: string;
}

/**
 * Helmet's headers on every surface (API, dashboard, checkout, CDN, docs): no page can be framed
 * (`frame-ancestors 'none'` and `X-Frame-Options: DENY`), scripts and styles only from this origin
 * or the hashed inline blocks of our templates, no plugins, no `<base>` tricks.
 *
 * Left out on purpose: `form-action`, because a consent approval and a payment end in a redirect
 * to the client's `redirect_uri` / the seller's `return_url` / a gateway's hosted page, which
 * browsers check against it; `upgrade-insecure-requests`, since plain-http deployments (local,
 * behind a TLS proxy that forwards http) would break. Product images are the seller's URLs on any
 * host, hence `img-src https: http:`.
 */
export function registerSecurityHeaders(fastify: FastifyInstance, viewsRoot: string, paths: SecurityHeaderPaths): void {
  const hashes = inlineBlockHashes(viewsRoot);
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", ...hashes.scripts],
        'style-src': ["'self'", ...hashes.styles],
        'img-src': ["'self'", 'data:', 'https:', 'http:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'frame-ancestors': ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    // Cross-origin isolation would stop sellers' pages from embedding their product images.
    crossOriginEmbedderPolicy: false,
  });
  fastify.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });

  const docsPolicy = [
    "default-src 'self'",
    "script-src 'self'",
    // swagger-ui sets style attributes from script and ships inline <style> blocks.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  const under = (url: string, prefix: string) =>
    url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);
  const cdnHost = new URL(paths.cdnUrl).host;
  // After helmet's headers: the two surfaces whose needs differ from the pages'.
  fastify.addHook('onRequest', (request, reply, done) => {
    const url = request.url;
    if (under(url, paths.docs)) reply.header('content-security-policy', docsPolicy);
    else if (paths.cdnPath ? under(url, paths.cdnPath) : request.host === cdnHost)
      reply.header('cross-origin-resource-policy', 'cross-origin');
    done();
  });
  // A handler that sets a policy of its own (the checkout pages, stored files) replaces helmet's:
  // whatever it says, nothing is framed.
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy === 'string' && !policy.includes('frame-ancestors')) {
      reply.header('content-security-policy', `${policy.replace(/;\s*$/, '')}; frame-ancestors 'none'`);
    }
    done(null, payload);
  });
}

/**
 * The headers helmet sets with these options, computed once. With no nonces and no per-request
 * directives they are the same on every response, so each request copies a ready object instead of
 * running helmet: `@fastify/helmet` called `helmet(options)` on every request, parsing the policy
 * again each time, which halved the requests per second of a bare Fastify route
 * (docs/performance.md, fifth round).
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string) {
      headers[name] = value;
    },
    removeHeader(name: string) {
      delete headers[name];
    },
  };
  let finished = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  // helmet's middleware is synchronous; a release that is not would show here, not in production.
  if (!finished) throw new Error('helmet did not finish synchronously');
  return headers;
}
