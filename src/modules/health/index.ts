/** Health's public surface: the Nest module the app wiring mounts (CONTRIBUTING.md, Layout). */
export { HealthModule } from './health.module';
