import { loadConfig } from '../../src/config/app-config';
import { SandboxGateway } from '../../src/modules/billing/payments/gateways/sandbox/sandbox.gateway';
import { PaymentGateway } from '../../src/modules/billing/payments/payment-gateway';
import { PaymentGatewayRegistry } from '../../src/modules/billing/payments/payment-gateway.registry';

/** A real gateway for `mpesa`, as the M-Pesa module registers when configured. */
const realMpesa = {
  provider: 'mpesa',
  methods: ['mpesa'],
  needsPaymentNumber: true,
  lookupAfterMs: 1,
} as unknown as PaymentGateway;

describe('the payment gateways of each mode (README, Test mode)', () => {
  it('production without PAYMENT_SANDBOX: test mode has the sandbox, live mode nothing', () => {
    const registry = new PaymentGatewayRegistry();
    const sandbox = new SandboxGateway(loadConfig({ NODE_ENV: 'production' }), registry);
    sandbox.onModuleInit();
    expect(registry.methods()).toEqual([]);
    expect(registry.forMethod('mpesa')).toBeUndefined();
    expect(registry.forProvider('sandbox')).toBeUndefined();
    expect(registry.hasFallback()).toBe(false);
    expect(registry.methods('test')).toEqual(['mpesa', 'emola']);
    expect(registry.forMethod('mpesa', 'test')).toBe(sandbox);
    expect(registry.forProvider('sandbox', 'test')).toBe(sandbox);
    expect(registry.hasFallback('test')).toBe(true);
  });

  it('a real gateway takes live payments only: test mode still pays through the sandbox', () => {
    const registry = new PaymentGatewayRegistry();
    const sandbox = new SandboxGateway(loadConfig({ NODE_ENV: 'test' }), registry);
    sandbox.onModuleInit();
    registry.register(realMpesa);
    expect(registry.forMethod('mpesa')).toBe(realMpesa);
    expect(registry.forMethod('emola')).toBe(sandbox);
    expect(registry.forMethod('mpesa', 'test')).toBe(sandbox);
    expect(registry.forProvider('mpesa', 'test')).toBeUndefined();
    expect(registry.forMethod('card', 'test')).toBeUndefined();
  });
});
