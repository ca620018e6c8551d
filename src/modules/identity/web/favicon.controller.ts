import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../auth/auth.decorators';

const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d232a"/><path d="M9 11h14l-2 10H11z" fill="#fff"/></svg>';

/** The dashboard's icon, linked from the layout: without it every page logs a 404 for /favicon.ico. */
@ApiExcludeController()
@Public()
@Controller()
export class FaviconController {
  @Get('favicon.svg')
  @Header('Content-Type', 'image/svg+xml')
  @Header('Cache-Control', 'public, max-age=86400')
  icon(): string {
    return ICON;
  }
}
