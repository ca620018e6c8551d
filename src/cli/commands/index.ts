import { CliCommand } from '../cli-command';
import { apiKeyCreate } from './api-key-create.command';
import { deliverySecretAdopt } from './delivery-secret-adopt.command';
import { oauthAppCreate } from './oauth-app-create.command';
import { operatorGrant, operatorRevoke } from './operator.command';
import { productReviewCommand } from './product-review.command';
import { seedDemo } from './seed-demo.command';
import { sellerCreate } from './seller-create.command';
import { subscriptionsSweep } from './subscriptions-sweep.command';

/** Every operator command (README, *Operating it*). A new command is one line here. */
export const COMMANDS: CliCommand[] = [
  sellerCreate,
  apiKeyCreate,
  oauthAppCreate,
  productReviewCommand,
  operatorGrant,
  operatorRevoke,
  seedDemo,
  subscriptionsSweep,
  deliverySecretAdopt,
];
