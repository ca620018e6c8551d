import { GUARDS_METADATA, MODULE_METADATA } from '@nestjs/common/constants';
import type { Type } from '@nestjs/common';
import { FaviconController } from '../../src/modules/identity/web/favicon.controller';
import { WebNotFoundController } from '../../src/modules/identity/web/not-found.controller';
import { SessionGuard } from '../../src/modules/identity/web/sessions/session.guard';
import { CsrfGuard } from '../../src/modules/identity/web/sessions/web-session.middleware';
import { WEB_MODULES } from '../../src/surfaces';

/**
 * Controllers without pages behind a session: the icon (a static file), and the 404 answer of any
 * method on an unknown path (no form to protect; it loads the session itself for the layout).
 */
const STATIC: Type[] = [FaviconController, WebNotFoundController];

describe('dashboard auth: one guard, deny by default', () => {
  const controllers = WEB_MODULES.flatMap(
    (module) => (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) as Type[] | undefined) ?? [],
  );

  it('finds the dashboard controllers', () => {
    expect(controllers.length).toBeGreaterThan(5);
  });

  it.each(controllers.filter((c) => !STATIC.includes(c)).map((c) => [c.name, c] as const))(
    '%s is declared with @DashboardPages() (session guard after the CSRF guard)',
    (_, controller) => {
      const guards = (Reflect.getMetadata(GUARDS_METADATA, controller) as Type[] | undefined) ?? [];
      expect(guards).toContain(SessionGuard);
      expect(guards.indexOf(CsrfGuard)).toBe(0);
    },
  );
});
