// timeout: 60
//
// Spec test for contract J6, channel messaging within one thread
// (https://html.spec.whatwg.org/multipage/web-messaging.html#message-ports):
// a seeded random mix of operations on several MessageChannels, whose ends
// keep moving from one MessagePort object to another, while deliveries
// interleave with the operations. Each channel has two logical ends; an end
// is held by one object at a time, and transferring it (over a carrier
// channel, over another data channel, or with structuredClone) detaches that
// object and continues the end as the object that arrives, NOT started, with
// the messages queued at it (before, during and after the transit) moving
// along. The operations: posts from either end (numbers, strings, {seq}
// objects, objects with an ArrayBuffer in the transfer list, bursts), posts on
// transferred-away objects and on closed ones, transfers, late starts
// (start() after addEventListener, or setting onmessage), turns (setTimeout,
// scheduler.postTask), and rarely a close of one end of a channel, directly
// or from inside that end's next message event. Once everything is quiet
// every end still not started is started. Checked, per logical receiving end:
//  - every message posted to it while both ends were open is delivered
//    exactly once, in posting order, to whichever object holds the end at
//    delivery time, unless the end itself is closed later (below);
//  - nothing posted on a transferred-away object, on a closed object, or
//    towards a closed end is ever delivered (message port post message steps
//    6: "If targetPort is null ... return");
//  - nothing is delivered to a transferred-away object (its listener stays
//    on), nor before start() (the port message queue is disabled until then;
//    an early delivery would find no listener yet, and the message would
//    then be missing);
//  - the seq values an end receives are strictly increasing;
//  - a transferred closed port throws DataCloneError (close() sets
//    [[Detached]]);
//  - an ArrayBuffer in the transfer list is detached even when the post
//    itself is dropped (StructuredSerializeWithTransfer runs before step 6).
// For an end that is closed itself, what it receives need only be a prefix,
// in order, of what was posted to it while open: HTML's close() steps ("set
// this's [[Detached]] to true; if this is entangled, disentangle it") say
// nothing about the tasks already in its port message queue, and engines
// differ (hostloop drops them; node drops them unless close() is called from
// inside a message event of a batch, then it delivers the rest of the batch;
// Gecko's close() is "soft" and keeps dispatching them). Messages a closed end
// posted before its close must still reach the other end (WPT
// webmessaging/message-channels/close.html, "Inflight messages should be
// delivered even when sending port is closed afterwards").
// Seeded, so a failure repeats; the failure names the seed and the last
// operations. Uses only web-standard APIs, so it also passes under node, with
// two of node's departures kept out of the mix: node starts a port on
// addEventListener('message') (so listeners go on only when starting), and
// node closes the partner of a closed port too (so an end whose partner is
// closed is not transferred; by HTML it is merely disentangled).

import { assert, assertEquals, test } from './lib/assert.mjs';

// A small linear congruential generator: the same sequence for a seed.
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const kChannels = 6;
// Channels below this index are never closed; they may carry (as a data
// message) the ends of higher channels, never of lower ones, so no end can
// end up inside its own queue.
const kCarrying = 2;
const kOps = 1000;
const kPriorities = ['user-blocking', 'user-visible', 'background'];
const kSettleMs = 5000;  // generous bound, not a timing assertion

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// scheduler.postTask is not a web standard node 20 has; a timer turn there.
const postTaskTurn = (priority) => (globalThis.scheduler?.postTask
  ? scheduler.postTask(() => {}, { priority })
  : delay(0));

const totals = {
  posts: 0, delivered: 0, dropped: 0, buffers: 0, bursts: 0, deadPosts: 0, closedPosts: 0,
  viaCarrier: 0, viaChannel: 0, viaClone: 0, lateStarts: 0, turns: 0,
  closes: 0, closesInHandler: 0, closedTransfers: 0,
};

async function run(seed) {
  const random = generator(seed);
  const below = (n) => Math.floor(random() * n);
  const pick = (list) => list[below(list.length)];
  const chance = (p) => random() < p;

  const trace = [];         // the operations, for the failure message
  const failures = [];      // found inside event listeners, thrown at the end
  const check = (condition, message) => {
    if (!condition && failures.length < 10) failures.push(message);
  };
  const note = (text) => trace.push(text);

  // Logical ends: ends[2 * channel + side]. end.obj is the MessagePort
  // holding it (null in transit), end.state that object's { started, status:
  // live | detached | closed }, which its listener sees.
  const ends = [];
  const posts = new Map();    // seq -> { to, live, carries, buffer }
  let nextSeq = 1;
  const channelClosed = new Array(kChannels).fill(false);  // a close was chosen (at most one end)

  const partner = (end) => ends[end.id ^ 1];

  const deliver = (obj, state, event) => {
    const end = state.end;
    const data = event.data;
    const seq = typeof data === 'number' ? data : typeof data === 'string' ? Number(data.slice(1)) : data?.seq;
    const where = `seed ${seed}: end ${end.name}, seq ${seq}`;
    check(Number.isInteger(seq), `${where}: undecodable message ${JSON.stringify(data)}`);
    check(state.status !== 'detached', `${where}: delivered to a transferred-away object`);
    const post = posts.get(seq);
    check(post !== undefined, `${where}: delivered but never posted`);
    if (post === undefined) return;
    check(post.to === end, `${where}: delivered to ${end.name}, posted to ${post.to.name}`);
    check(post.live, `${where}: delivered, but it was posted on a dead or closed object, or towards a closed end`);
    const last = end.received.at(-1);
    check(last === undefined || last < seq, `${where}: received after seq ${last}`);
    end.received.push(seq);
    totals.delivered++;
    if (post.buffer) {
      const bytes = data.buf instanceof ArrayBuffer ? new Uint8Array(data.buf) : null;
      check(bytes !== null && bytes.length === 8 && bytes.every((b) => b === (seq & 255)),
        `${where}: the transferred ArrayBuffer arrived wrong`);
    }
    if (post.carries !== undefined) {
      check(event.ports.length === 1, `${where}: the carried end arrived with ${event.ports.length} ports`);
      if (data.port !== undefined) check(data.port === event.ports[0], `${where}: data.port is not ports[0]`);
      arrive(post.carries, event.ports[0]);
    } else {
      check(event.ports.length === 0, `${where}: unexpected ports`);
    }
    if (end.closeArmed && state.status === 'live') {
      // A close from inside a message event, with more perhaps queued.
      end.closeArmed = false;
      closeEnd(end, 'in handler');
      totals.closesInHandler++;
    }
  };

  // `obj` now holds `end`; it is not started, whatever its predecessor was.
  const adopt = (end, obj) => {
    end.obj = obj;
    end.state = { end, started: false, status: 'live' };
  };

  const arrive = (id, port) => {
    const end = ends[id];
    check(port instanceof MessagePort, `seed ${seed}: end ${end.name} arrived as ${port}`);
    check(end.obj === null, `seed ${seed}: end ${end.name} arrived twice`);
    adopt(end, port);
    note(`arrive ${end.name}`);
  };

  // The listener goes on when the object is started, not before: node starts
  // a port on addEventListener('message'), HTML does not.
  const start = (end) => {
    const { obj, state } = end;
    const listener = (event) => deliver(obj, state, event);
    if (chance(0.5)) {
      obj.addEventListener('message', listener);
      obj.start();
    } else {
      obj.onmessage = listener;
    }
    state.started = true;
  };

  const closeEnd = (end, how) => {
    end.obj.close();
    end.state.status = 'closed';
    end.closed = true;
    totals.closes++;
    note(`close ${end.name} ${how} (after seq ${nextSeq - 1})`);
  };

  // Detaches end.obj (the caller sends it somewhere).
  const detach = (end) => {
    end.state.status = 'detached';
    end.dead.push(end.obj);
    end.obj = null;
    end.state = null;
  };

  const message = (seq, extra = {}) => {
    if (Object.keys(extra).length > 0) return { seq, ...extra };
    switch (below(3)) {
      case 0: return seq;
      case 1: return `m${seq}`;
      default: return { seq };
    }
  };

  // Posts one message on `obj`, which holds (or held) `from`.
  const postOn = (obj, from, live, kind) => {
    const to = partner(from);
    const seq = nextSeq++;
    const record = { to, live, carries: undefined, buffer: false };
    posts.set(seq, record);
    if (live) to.expect.push(seq);
    totals.posts++;
    if (!live) totals.dropped++;
    if (chance(0.1)) {
      const buf = new ArrayBuffer(8);
      new Uint8Array(buf).fill(seq & 255);
      record.buffer = true;
      obj.postMessage(message(seq, { buf }), [buf]);
      check(buf.byteLength === 0, `seed ${seed}: seq ${seq} (${kind}): the ArrayBuffer was not detached`);
      totals.buffers++;
    } else {
      obj.postMessage(message(seq));
    }
    note(`post ${seq} ${from.name}->${to.name} ${kind}${live ? '' : ' (dropped)'}`);
  };

  const post = (from) => {
    const live = !from.closed && !partner(from).closed;
    postOn(from.obj, from, live, from.closed ? 'from closed' : partner(from).closed ? 'to closed' : '');
    if (from.closed) totals.closedPosts++;
  };

  const transfer = (end) => {
    const obj = end.obj;
    const roll = random();
    const carriersByChannel = ends.filter((e) => e.channel < Math.min(end.channel, kCarrying) && e.obj !== null);
    if (roll < 0.3) {
      // structuredClone: the end continues at once as the returned object.
      const inData = chance(0.5);
      detach(end);
      const clone = inData ? structuredClone({ port: obj }, { transfer: [obj] }).port : structuredClone(obj, { transfer: [obj] });
      check(clone !== obj, `seed ${seed}: structuredClone returned the same port`);
      note(`clone ${end.name}`);
      adopt(end, clone);
      totals.viaClone++;
    } else if (roll < 0.55 && carriersByChannel.length > 0) {
      // As a data message of a lower channel: the end arrives when that
      // message is delivered, which may wait for a late start or a transit.
      const from = pick(carriersByChannel);
      const to = partner(from);
      const seq = nextSeq++;
      posts.set(seq, { to, live: true, carries: end.id, buffer: false });
      to.expect.push(seq);
      totals.posts++;
      detach(end);
      const data = chance(0.5) ? { seq, carry: end.id, port: obj } : { seq, carry: end.id };
      from.obj.postMessage(data, [obj]);
      note(`post ${seq} ${from.name}->${to.name} carrying ${end.name}`);
      totals.viaChannel++;
    } else {
      // Over a carrier channel, in either direction.
      const carrier = pick(carriers);
      const side = below(2);
      detach(end);
      const data = chance(0.5) ? { id: end.id, port: obj } : { id: end.id };
      (side === 0 ? carrier.port1 : carrier.port2).postMessage(data, [obj]);
      note(`carry ${end.name}`);
      totals.viaCarrier++;
    }
    // The old object is dead: posting on it must send nothing.
    if (chance(0.3)) {
      postOn(obj, end, false, 'on the transferred-away object');
      totals.deadPosts++;
    }
  };

  // The carriers: always started, never closed before the end.
  const carriers = [new MessageChannel(), new MessageChannel()];
  for (const carrier of carriers) {
    for (const port of [carrier.port1, carrier.port2]) {
      port.onmessage = (event) => {
        check(event.ports.length === 1, `seed ${seed}: a carrier message with ${event.ports.length} ports`);
        if (event.data.port !== undefined) check(event.data.port === event.ports[0], `seed ${seed}: carrier data.port is not ports[0]`);
        arrive(event.data.id, event.ports[0]);
      };
    }
  }

  for (let channel = 0; channel < kChannels; channel++) {
    const { port1, port2 } = new MessageChannel();
    [port1, port2].forEach((port, side) => {
      const end = {
        id: 2 * channel + side, channel, name: `${channel}${'ab'[side]}`,
        obj: null, state: null, closed: false, closeArmed: false,
        expect: [], received: [], dead: [],
      };
      ends.push(end);
      adopt(end, port);
      if (chance(0.5)) start(end);
    });
  }

  const present = () => ends.filter((end) => end.obj !== null);
  const liveEnds = () => ends.filter((end) => end.obj !== null && !end.closed);

  for (let op = 0; op < kOps; op++) {
    const roll = random();
    if (roll < 0.42) {
      const from = pick(present());
      if (from) post(from);
    } else if (roll < 0.45) {
      // A burst, so a backlog builds up at the other end.
      const from = pick(liveEnds());
      if (from) {
        for (let i = 2 + below(8); i > 0; i--) post(from);
        totals.bursts++;
      }
    } else if (roll < 0.58) {
      // Not an end whose partner is closed: by HTML it is only disentangled,
      // still transferable (WPT close.html, "close() detaches a MessageChannel
      // (but not the one its entangled with)"), but node closes it as well
      // once the close reaches it, and then throws DataCloneError.
      const end = pick(liveEnds().filter((e) => !partner(e).closed));
      if (end) transfer(end);
    } else if (roll < 0.68) {
      const end = pick(liveEnds().filter((e) => !e.state.started));
      if (end) {
        start(end);
        note(`start ${end.name}`);
        totals.lateStarts++;
      }
    } else if (roll < 0.86) {
      if (chance(0.5)) {
        await delay(0);
      } else {
        await postTaskTurn(pick(kPriorities));
      }
      totals.turns++;
    } else if (roll < 0.9) {
      await Promise.resolve();  // a microtask only: no delivery in between
    } else if (roll < 0.93) {
      const withDead = ends.filter((end) => end.dead.length > 0);
      if (withDead.length > 0) {
        const end = pick(withDead);
        postOn(pick(end.dead), end, false, 'on a transferred-away object');
        totals.deadPosts++;
      }
    } else if (roll < 0.94) {
      // A transferred closed port throws DataCloneError, and stays put.
      const end = pick(ends.filter((e) => e.closed && e.obj !== null));
      if (end) {
        let error = null;
        try {
          structuredClone(end.obj, { transfer: [end.obj] });
        } catch (e) {
          error = e;
        }
        check(error instanceof DOMException && error.name === 'DataCloneError',
          `seed ${seed}: transferring the closed port of ${end.name} gave ${error}`);
        totals.closedTransfers++;
      }
    } else if (roll < 0.9425) {
      // Rarely, close one end of a channel that is still open.
      const candidates = liveEnds().filter((e) => e.channel >= kCarrying && !channelClosed[e.channel]);
      if (candidates.length > 0) {
        const end = pick(candidates);
        channelClosed[end.channel] = true;
        if (chance(0.5)) {
          closeEnd(end, 'directly');
        } else {
          end.closeArmed = true;  // at its next message event, if any
          note(`arm close ${end.name}`);
        }
      }
    }
  }

  // Quiet down: start every end that is not started (closed ones too: a
  // close keeps or drops its queue, either is allowed), until every end has
  // arrived and every open end has what it was sent.
  const settled = () => ends.every((end) => end.obj !== null && end.state.started
    && (end.closed || end.received.length === end.expect.length));
  const deadline = Date.now() + kSettleMs;
  while (!settled() && failures.length === 0 && Date.now() < deadline) {
    for (const end of ends) {
      if (end.obj !== null && !end.state.started) start(end);
    }
    await delay(1);
  }
  // Deliveries a closed end may still get, and any stray ones.
  for (let i = 0; i < 5; i++) await delay(1);
  const counts = ends.map((end) => end.received.length);
  for (const end of ends) {
    if (end.obj !== null && !end.closed) end.obj.close();
  }
  for (const carrier of carriers) carrier.port1.close();
  for (let i = 0; i < 3; i++) await delay(1);

  const report = (message) => `${message}\n  last operations:\n    ${trace.slice(-40).join('\n    ')}`;
  if (failures.length > 0) assert(false, report(failures.join('\n  ')));
  assertEquals(ends.map((end) => end.received.length), counts, `seed ${seed}: deliveries after everything was quiet`);
  for (const end of ends) {
    const what = `seed ${seed}: end ${end.name}${end.closed ? ' (closed)' : ''}`;
    assert(end.obj !== null, report(`${what} never arrived`));
    if (end.closed) {
      assertEquals(end.received, end.expect.slice(0, end.received.length), report(`${what}: not a prefix of what was posted to it`));
    } else {
      assertEquals(end.received, end.expect, report(`${what}: deliveries`));
    }
  }
}

for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
  await test(`seed ${seed}: every message to a moving port end arrives once, in order, at its current object`, () => run(seed));
}

await test('the random mix covered every kind of operation', () => {
  for (const [kind, count] of Object.entries(totals)) {
    assert(count > 0, `no ${kind} in the mix: ${JSON.stringify(totals)}`);
  }
});
