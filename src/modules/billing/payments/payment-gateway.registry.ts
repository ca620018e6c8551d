import { Injectable, Logger, Optional } from '@nestjs/common';
import { Contributions, ExtensionPoint } from '../../../common/plugins/contributions';
import type { PaymentGateway } from './payment-gateway';

/**
 * Which side of a store a payment belongs to (README, *Test mode*): test orders pay through the
 * test gateway (the sandbox) only, whatever the deployment; live orders through the gateways
 * registered for live payments.
 */
export type PaymentMode = 'live' | 'test';

/** Where the payment gateways of plugins (`definePlugin({ paymentGateways })`) are collected. */
export const PAYMENT_GATEWAYS = new ExtensionPoint<PaymentGateway>('payment gateways');

/** The order the checkout lists methods in (any other method a gateway adds comes after them). */
const METHOD_ORDER = ['mpesa', 'emola', 'card'];

/**
 * The gateways of this process, by payment method and by provider (README, *Taking payments*). Gateway modules
 * register themselves in `onModuleInit` when configured; the payments core only ever asks this
 * registry. A real gateway takes a method over from a fallback (the sandbox).
 *
 * @example
 * ```ts
 * @Injectable()
 * class EmolaGateway implements PaymentGateway, OnModuleInit {
 *   readonly provider = 'emola';
 *   readonly methods = ['emola'];
 *   constructor(private readonly registry: PaymentGatewayRegistry) {}
 *   onModuleInit() { this.registry.register(this); }
 *   …
 * }
 * @Module({ imports: [PaymentGatewayRegistryModule], providers: [EmolaGateway] })
 * export class EmolaGatewayModule {}
 * ```
 */
@Injectable()
export class PaymentGatewayRegistry {
  private readonly logger = new Logger('Payments');
  private readonly byProvider = new Map<string, PaymentGateway>();
  /** The gateway of test mode: the sandbox, registered whether or not it also takes live payments. */
  private testGateway: PaymentGateway | undefined;

  constructor(@Optional() contributions?: Contributions) {
    // A plugin's gateway objects; gateways that need injection register themselves instead.
    for (const gateway of contributions?.of(PAYMENT_GATEWAYS) ?? []) this.register(gateway);
  }

  /** Adds a gateway. Two gateways with one provider name, or two real ones for one method, are a start-up error. */
  register(gateway: PaymentGateway): void {
    if (this.byProvider.has(gateway.provider))
      throw new Error(`Payment provider "${gateway.provider}" is registered twice.`);
    for (const method of gateway.methods) {
      const other = this.forMethod(method);
      if (other && !other.fallback && !gateway.fallback) {
        throw new Error(`Payment method "${method}" is served by both "${other.provider}" and "${gateway.provider}".`);
      }
    }
    this.byProvider.set(gateway.provider, gateway);
    this.logger.log(`Payment gateway ${gateway.provider} serves ${gateway.methods.join(', ')}`);
  }

  /** Sets the gateway of test mode's payments (the sandbox does, at start-up). */
  registerTest(gateway: PaymentGateway): void {
    if (this.testGateway && this.testGateway !== gateway)
      throw new Error(`Test payments are served by both "${this.testGateway.provider}" and "${gateway.provider}".`);
    this.testGateway = gateway;
  }

  /**
   * The gateway that takes `method`: a real one, else a fallback, else none (the method is not
   * offered). In test mode: the test gateway, for its methods only.
   */
  forMethod(method: string, mode: PaymentMode = 'live'): PaymentGateway | undefined {
    if (mode === 'test') return this.testGateway?.methods.includes(method) ? this.testGateway : undefined;
    let fallback: PaymentGateway | undefined;
    for (const gateway of this.byProvider.values()) {
      if (!gateway.methods.includes(method)) continue;
      if (!gateway.fallback) return gateway;
      fallback ??= gateway;
    }
    return fallback;
  }

  /** The gateway of `provider` for payments of `mode` (test mode has the test gateway only). */
  forProvider(provider: string, mode: PaymentMode = 'live'): PaymentGateway | undefined {
    if (mode === 'test') return this.testGateway?.provider === provider ? this.testGateway : undefined;
    return this.byProvider.get(provider);
  }

  /** The methods the checkout offers. */
  methods(mode: PaymentMode = 'live'): string[] {
    const gateways = mode === 'test' ? (this.testGateway ? [this.testGateway] : []) : [...this.byProvider.values()];
    const all = new Set(gateways.flatMap((g) => g.methods));
    const rank = (m: string) => (METHOD_ORDER.includes(m) ? METHOD_ORDER.indexOf(m) : METHOD_ORDER.length);
    return [...all].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  }

  /** True while a fallback (test) gateway takes any method: the checkout says no money moves. Always in test mode. */
  hasFallback(mode: PaymentMode = 'live'): boolean {
    if (mode === 'test') return true;
    return [...this.byProvider.values()].some((g) => g.fallback && g.methods.some((m) => this.forMethod(m) === g));
  }

  all(): PaymentGateway[] {
    return [...this.byProvider.values()];
  }
}
