// keep(channel) -> channel: the channel stays reachable from the global
// object while the test runs. For the tests of MessagePort chains
// (j6_port_chain_*): they are about chains, not about what keeps an
// unreferenced channel alive (messaging_port_gc_in_flight.mjs is).
const kept = (globalThis.keptChannels = []);

export function keep(channel) {
  kept.push(channel);
  return channel;
}
