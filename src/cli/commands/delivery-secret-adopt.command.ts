import { DeliverySecretCheck } from '../../database/delivery-secret-check';
import type { CliCommand } from '../cli-command';

/**
 * `delivery-secret:adopt`: makes this process's `DELIVERY_SECRET` (or `$DATA_DIR/delivery.key`) the
 * database's, for an operator who changes it on purpose (README, `DELIVERY_SECRET`). Links signed
 * before stop working and license keys sealed before can no longer be shown.
 */
export const deliverySecretAdopt: CliCommand = {
  name: 'delivery-secret:adopt',
  usage: 'delivery-secret:adopt',
  summary:
    "Make this configuration's DELIVERY_SECRET the database's (links and license keys sealed under the old one stop working).",
  flags: {},
  adoptsDeliverySecret: true,
  async run(app) {
    await app.get(DeliverySecretCheck).adopt();
    return { adopted: true };
  },
};
