import { isNonPublicAddress, resolveDestination } from '../../src/modules/webhooks/delivery/destination-guard';

describe('isNonPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.100.100.200',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.0.192',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    '::ffff:0:7f00:1',
    '::ffff:0:127.0.0.1',
    '::ffff:0:a00:1',
    '64:ff9b:1::a00:1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '2001:db8::1',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '::ffff:0:808:808',
    '2002:808:808::',
  ])('allows %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});

describe('resolveDestination', () => {
  it('refuses non-http schemes and, when guarded, loopback names', async () => {
    await expect(resolveDestination('file:///etc/passwd', false)).rejects.toThrow('Only http and https');
    await expect(resolveDestination('http://localhost:1/x', true)).rejects.toThrow(/non-public address/);
    await expect(resolveDestination('http://[::1]:1/x', true)).rejects.toThrow('::1');
  });

  it('returns the address to connect to', async () => {
    await expect(resolveDestination('http://127.0.0.1:1/x', false)).resolves.toMatchObject({
      address: '127.0.0.1',
      family: 4,
    });
    await expect(resolveDestination('https://93.184.215.14/x', true)).resolves.toMatchObject({
      address: '93.184.215.14',
    });
  });
});
