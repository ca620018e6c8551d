import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../identity';

/** The demo product's cover (README, Quick start): an image the service serves itself. */
const DEMO_COVER = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 450" role="img" aria-label="Digital Marketing Guide">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1a7f4b"/><stop offset="1" stop-color="#0b3d5c"/></linearGradient></defs>
<rect width="800" height="450" fill="url(#g)"/>
<g fill="none" stroke="#fff" stroke-opacity=".18" stroke-width="2"><circle cx="650" cy="90" r="140"/><circle cx="650" cy="90" r="90"/><path d="M60 380 L220 250 L330 320 L520 160 L740 300"/></g>
<text x="60" y="190" font-family="system-ui,Segoe UI,Roboto,sans-serif" font-size="58" font-weight="700" fill="#fff">Digital Marketing</text>
<text x="60" y="260" font-family="system-ui,Segoe UI,Roboto,sans-serif" font-size="58" font-weight="700" fill="#fff">Guide</text>
<text x="60" y="320" font-family="system-ui,Segoe UI,Roboto,sans-serif" font-size="26" fill="#d1f2df">Demo Books</text>
</svg>`;

/** Static images of the customer's pages under `{pay_url}/assets/`. */
@ApiExcludeController()
@Public()
@Controller('assets')
export class CheckoutAssetsController {
  @Get('demo-cover.svg')
  @Header('Content-Type', 'image/svg+xml')
  @Header('Cache-Control', 'public, max-age=86400')
  demoCover(): string {
    return DEMO_COVER;
  }
}
