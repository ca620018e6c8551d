/** Test mode's public surface: the Nest module the app wiring mounts (CONTRIBUTING.md, Layout). */
export { TestModeModule } from './test-mode.module';
