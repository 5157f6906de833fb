import { BlockList, isIP } from 'node:net';

// Two lists on purpose: node's BlockList matches an IPv4 address against IPv4-mapped IPv6
// rules, so one list holding `::ffff:0:0/96` would refuse every IPv4 address.
const refusedV4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (also Alibaba's metadata 100.100.100.200)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  refusedV4.addSubnet(network, prefix, 'ipv4');
}

// IPv6: only global unicast (2000::/3) is reachable at all, which already leaves out ::,
// ::1, IPv4-mapped and -compatible addresses, NAT64, unique-local (fc00::/7, including AWS's
// metadata fd00:ec2::254), link-local, site-local and multicast. Inside 2000::/3, the ranges
// that embed an IPv4 address or are not routed are refused too.
const globalV6 = new BlockList();
globalV6.addSubnet('2000::', 3, 'ipv6');
const refusedV6 = new BlockList();
for (const [network, prefix] of [
  ['2001::', 32], // Teredo (embeds IPv4)
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID
  ['2001:20::', 28], // ORCHIDv2
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds IPv4)
  ['3fff::', 20], // documentation
] as const) {
  refusedV6.addSubnet(network, prefix, 'ipv6');
}

/**
 * Whether a webhook may be sent to this IP address: false for private, loopback, link-local,
 * carrier-grade NAT, unique-local, IPv4-mapped or -embedding IPv6, multicast, documentation,
 * reserved and unspecified addresses (and for anything that is not an IP address).
 *
 * @example
 * isPublicAddress('8.8.8.8'); // true
 * isPublicAddress('169.254.169.254'); // false (cloud metadata)
 * isPublicAddress('::ffff:127.0.0.1'); // false
 */
export function isPublicAddress(address: string): boolean {
  switch (isIP(address)) {
    case 4:
      return !refusedV4.check(address, 'ipv4');
    case 6:
      return globalV6.check(address, 'ipv6') && !refusedV6.check(address, 'ipv6');
    default:
      return false;
  }
}
