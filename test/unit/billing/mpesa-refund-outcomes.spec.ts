import { generateKeyPairSync } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { loadConfig } from '../../../src/config/app-config';
import { MpesaGateway } from '../../../src/modules/billing/payments/gateways/mpesa/mpesa.gateway';
import { GatewayUnreachableError, RefundRequest } from '../../../src/modules/billing/payments/payment-gateway';
import { PaymentGatewayRegistry } from '../../../src/modules/billing/payments/payment-gateway.registry';
import { freePort } from '../../utils/free-port';

/**
 * What an M-Pesa reversal that got no outcome means for the refund (billing README, *Refunds*): a
 * connection refused reached nothing (`GatewayUnreachableError`, the claim is freed at once); a
 * connection dropped after the request was sent may have reversed it (any other error: the claim
 * is kept for reconciliation).
 */
describe('M-Pesa reversal without an outcome', () => {
  const publicKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .publicKey.export({ type: 'spki', format: 'der' })
    .toString('base64');
  const request: RefundRequest = {
    reference: 'att_unit',
    amount: 15000,
    currency: 'MZN',
    gatewayReference: null,
    transactionId: 'TX123',
    paymentNumber: '258841234567',
    offSession: false,
    createdAt: new Date(),
    requestReference: 'refundReferenceUnit1',
  };
  const gatewayAt = (reversalUrl: string) =>
    new MpesaGateway(
      loadConfig({
        NODE_ENV: 'test',
        MPESA_API_KEY: 'key',
        MPESA_PUBLIC_KEY: publicKey,
        MPESA_SERVICE_PROVIDER_CODE: '171717',
        MPESA_INITIATOR_IDENTIFIER: 'Shop',
        MPESA_SECURITY_CREDENTIAL: 'credential',
        MPESA_REVERSAL_URL: reversalUrl,
      }),
      new PaymentGatewayRegistry(),
    );

  it('a connection refused is GatewayUnreachableError: nothing was sent', async () => {
    const port = await freePort();
    await expect(gatewayAt(`http://127.0.0.1:${port}/ipg/v1x/reversal/`).refund(request)).rejects.toBeInstanceOf(
      GatewayUnreachableError,
    );
  });

  it('a connection dropped after the request arrived is another error: the reversal may have been made', async () => {
    let received = 0;
    const server: Server = createServer((req) => {
      received++;
      req.socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ipg/v1x/reversal/`;
      const refused = gatewayAt(url).refund(request);
      await expect(refused).rejects.toThrow('M-Pesa reversal');
      await expect(refused).rejects.not.toBeInstanceOf(GatewayUnreachableError);
      expect(received).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
