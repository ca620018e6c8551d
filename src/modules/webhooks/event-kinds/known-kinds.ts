import { ValidateBy, ValidationOptions } from 'class-validator';
import { ORDER_EVENT_KINDS } from '../../billing';

/**
 * The webhook event kinds of the apps built in this process, for DTO validation: class-validator's
 * decorators are static, so `events` is checked here together with the other fields (one 422 with
 * every field's error). A process normally builds one app; when it builds several with different
 * plugins, `WebhookEventKinds.assertKnown` still checks the kinds of the app at hand.
 */
const known = new Set<string>(ORDER_EVENT_KINDS);

export function addKnownKinds(kinds: readonly string[]): void {
  for (const kind of kinds) known.add(kind);
}

export const knownKindsMessage = (): string => `events must be among ${[...known].join(', ')}.`;

/** Each item is a webhook event kind (the contract's, the webhooks of the OpenAPI description, or a plugin's). */
export function IsWebhookEventKind(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isWebhookEventKind',
      validator: { validate: (value: unknown) => typeof value === 'string' && known.has(value) },
    },
    { each: true, message: knownKindsMessage, ...options },
  );
}
