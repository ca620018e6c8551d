import { Injectable, Optional } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { EntityManager } from 'typeorm';
import type { DomainEvent } from '../../../common/events/domain-event';
import { ValidationError } from '../../../common/errors/app-error';
import { OpenApiAmendments } from '../../../common/http/openapi-amendments';
import { Contributions, ExtensionPoint } from '../../../common/plugins/contributions';
import { ORDER_EVENT_KIND_OF, ORDER_EVENT_KINDS, OrderEventPayloads } from '../../billing';
import { addKnownKinds } from './known-kinds';

/** What a payload builder may use: the transaction of the change, and the app's providers. */
export interface PayloadContext {
  /** The transaction that publishes the event: read what the payload shows through it. */
  manager: EntityManager;
  /** A provider of the app (`get(OrderEventPayloads)`), resolved across modules. */
  get<T>(token: abstract new (...args: never[]) => T): T;
}

/**
 * A kind of webhook event (`order_approved`, …): the name webhooks subscribe to, the domain event
 * types that produce it, and the body a delivery posts. Core's three order kinds are built this
 * way; a plugin adds one through `definePlugin({ webhookEventKinds })`.
 */
export interface WebhookEventKind {
  /** What `events` of a webhook lists: lower case, digits, `_`, at most 32 characters. */
  kind: string;
  /** The domain event types (`order.approved`) delivered as this kind. */
  eventTypes: readonly string[];
  /**
   * The JSON body of the delivery, built inside the transaction of the change (the outbox): no
   * network, reads only. Called once per event that has subscribers.
   */
  buildPayload(event: DomainEvent, context: PayloadContext): Promise<object>;
}

export const WEBHOOK_EVENT_KINDS = new ExtensionPoint<WebhookEventKind>('webhook event kinds');

const KIND_PATTERN = /^[a-z][a-z0-9_]{0,31}$/;

/**
 * Every webhook event kind of this app: validation of `events` (create and update), the notifier's
 * subscription to domain events, and the `enum` of the kinds in the OpenAPI document.
 */
@Injectable()
export class WebhookEventKinds {
  private readonly byKind = new Map<string, WebhookEventKind>();
  private readonly byEventType = new Map<string, WebhookEventKind>();

  constructor(
    payloads: OrderEventPayloads,
    private readonly moduleRef: ModuleRef,
    amendments: OpenApiAmendments,
    @Optional() contributions?: Contributions,
  ) {
    for (const [type, kind] of ORDER_EVENT_KIND_OF) {
      this.add('core', {
        kind,
        eventTypes: [type],
        buildPayload: (event, { manager }) => payloads.build(kind, event.refs.orderId!, manager),
      });
    }
    for (const { value, plugin } of contributions?.entries(WEBHOOK_EVENT_KINDS) ?? []) this.add(plugin, value);
    addKnownKinds(this.kinds());
    amendments.add((document) => replaceKindEnums(document, [...ORDER_EVENT_KINDS], this.kinds()));
  }

  kinds(): string[] {
    return [...this.byKind.keys()];
  }

  /** The domain event types the notifier listens to. */
  eventTypes(): string[] {
    return [...this.byEventType.keys()];
  }

  forEventType(type: string): WebhookEventKind | undefined {
    return this.byEventType.get(type);
  }

  /** 422 on `events` when one of them is not a kind of this app (the webhooks of the OpenAPI description, and the plugins'). */
  assertKnown(events: readonly string[] | undefined): void {
    if (events?.some((kind) => !this.byKind.has(kind))) {
      throw ValidationError.field('events', `events must be among ${this.kinds().join(', ')}.`);
    }
  }

  buildPayload(kind: WebhookEventKind, event: DomainEvent, manager: EntityManager): Promise<object> {
    return kind.buildPayload(event, { manager, get: (token) => this.moduleRef.get(token, { strict: false }) });
  }

  private add(plugin: string, kind: WebhookEventKind): void {
    if (!KIND_PATTERN.test(kind.kind))
      throw new Error(`Plugin ${plugin}: webhook event kind ${JSON.stringify(kind.kind)} is not a valid name`);
    if (this.byKind.has(kind.kind))
      throw new Error(`Plugin ${plugin}: webhook event kind ${kind.kind} is already registered`);
    for (const type of kind.eventTypes) {
      const taken = this.byEventType.get(type);
      if (taken) throw new Error(`Plugin ${plugin}: event type ${type} is already delivered as ${taken.kind}`);
      this.byEventType.set(type, kind);
    }
    this.byKind.set(kind.kind, kind);
  }
}

/**
 * The DTOs declare the contract's kinds as their `enum` (decorators are static); the document shows
 * every kind of this app instead.
 */
function replaceKindEnums(node: unknown, core: string[], all: string[]): void {
  if (!node || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (Array.isArray(record.enum) && sameMembers(record.enum, core)) record.enum = [...all];
  for (const value of Object.values(record)) replaceKindEnums(value, core, all);
}

function sameMembers(values: unknown[], expected: string[]): boolean {
  return values.length === expected.length && expected.every((v) => values.includes(v));
}
