import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { NotFoundError } from '../../../common/errors/app-error';
import { Public } from '../../identity';

const FONT = 'system-ui,Segoe UI,Roboto,sans-serif';

/** A demo product's cover: its name on two lines over a gradient, and the demo's brand. */
function cover(lines: [string, string], from: string, to: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 450" role="img" aria-label="${lines.join(' ')}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="800" height="450" fill="url(#g)"/>
<g fill="none" stroke="#fff" stroke-opacity=".18" stroke-width="2"><circle cx="650" cy="90" r="140"/><circle cx="650" cy="90" r="90"/><path d="M60 380 L220 250 L330 320 L520 160 L740 300"/></g>
<text x="60" y="190" font-family="${FONT}" font-size="58" font-weight="700" fill="#fff">${lines[0]}</text>
<text x="60" y="260" font-family="${FONT}" font-size="58" font-weight="700" fill="#fff">${lines[1]}</text>
<text x="60" y="320" font-family="${FONT}" font-size="26" fill="#e6eef5">Demo Books</text>
</svg>`;
}

/** The demo products' covers (README, Quick start): images the service serves itself, one per product. */
const DEMO_COVERS: Record<string, string> = {
  'demo-cover.svg': cover(['Digital Marketing', 'Guide'], '#1a7f4b', '#0b3d5c'),
  'demo-cover-club.svg': cover(['Marketing', 'Club'], '#6b2fa3', '#1f2f6b'),
  'demo-cover-checklist.svg': cover(['Launch', 'Checklist'], '#b4531c', '#5c1f0b'),
  'demo-cover-toolkit.svg': cover(['Invoice', 'Toolkit'], '#1f5fa8', '#0b2a4a'),
};

/**
 * The image of a product that has none of its own (`product.svg`): the `image` of its webhook
 * payloads, which the contract types as a URI (billing README, payload fields).
 */
export const PRODUCT_PLACEHOLDER = 'product.svg';
const PLACEHOLDER_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 450" role="img" aria-label="Product">
<rect width="800" height="450" fill="#e5e7eb"/>
<g fill="none" stroke="#9ca3af" stroke-width="14" stroke-linejoin="round"><path d="M340 130 h90 l50 50 v140 h-140 z"/><path d="M430 130 v50 h50"/></g>
</svg>`;

const IMAGES: Record<string, string> = { ...DEMO_COVERS, [PRODUCT_PLACEHOLDER]: PLACEHOLDER_SVG };

/** Static images of the customer's pages under `{pay_url}/assets/`. */
@ApiExcludeController()
@Public()
@Controller('assets')
export class CheckoutAssetsController {
  @Get(':name')
  image(@Param('name') name: string, @Res({ passthrough: true }) res: FastifyReply): string {
    const svg = Object.hasOwn(IMAGES, name) ? IMAGES[name] : undefined;
    if (!svg) throw new NotFoundError();
    void res.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400');
    return svg;
  }
}
