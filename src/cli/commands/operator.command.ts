import { SellersService } from '../../modules/identity';
import type { CliCommand } from '../cli-command';
import { CliUsageError, required } from '../flags';

/** `operator:grant` and `operator:revoke`: who may review products at `{web_url}/review` (identity's README). */
function operatorCommand(name: string, operator: boolean, summary: string): CliCommand {
  return {
    name,
    usage: `${name} --email E`,
    summary,
    flags: { email: "the seller's email" },
    async run(app, flags) {
      const email = required(flags, 'email');
      if (!(await app.get(SellersService).setOperator(email, operator)))
        throw new CliUsageError(`No seller with email ${email}`);
      return { email: email.toLowerCase(), operator };
    },
  };
}

export const operatorGrant = operatorCommand(
  'operator:grant',
  true,
  "Let a seller review every store's products in the dashboard (/review).",
);

export const operatorRevoke = operatorCommand(
  'operator:revoke',
  false,
  "Take a seller's review rights away; the dashboard's review page answers 404 to them at once.",
);
