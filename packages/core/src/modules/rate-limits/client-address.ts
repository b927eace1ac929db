import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client address as rate-limited (admin sign-in, publishable keys' writes): an IPv4 address itself (also when written IPv4-mapped, `::ffff:1.2.3.4`), an
 * IPv6 address by its /64 (one subscriber usually holds a whole /64, and can pick any address in it).
 */
export function clientAddressGroup(ip: string): string {
  const address = ip.trim().replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  // An embedded IPv4 tail (`::1.2.3.4`) is two groups; only the first four groups matter here anyway.
  const rightGroups = right.flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const full = [
    ...left,
    ...Array.from({ length: Math.max(0, 8 - left.length - rightGroups.length) }, () => '0'),
    ...rightGroups,
  ];
  return `${full
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
