// BroadcastChannel (HTML "broadcasting to other browsing contexts"): every
// BroadcastChannel of one name, in any runtime of the process (the main one
// and every worker), receives what another one posts.
// https://html.spec.whatwg.org/multipage/web-messaging.html#broadcasting-to-other-browsing-contexts
//
// A process-wide hub keeps the open channels by name, in creation order.
// postMessage serializes once, then posts a copy to each other open channel
// of the name as an internal-lane entry of that channel's runtime (a task of
// its own, in posting order per destination; a flood is bounded per pass like
// any internal-lane work, L4). The entry checks that its channel is still open
// when it runs, so close() drops what is queued for it.
//
// Liveness (J3): an open channel with a `message` or `messageerror` listener
// keeps its runtime alive while another runtime lives in the process (a
// worker, or the parent of this worker): that one may open a channel of the
// name and post at any time. Alone in the process, it keeps nothing alive
// (node, deno and bun keep a process alive while any channel is open, until
// close()). When the process goes from one runtime to two or back, every
// open channel looks again.
#pragma once

#include <span>

#include "runtime/host_bindings.h"

namespace hostloop::runtime {

// The natives behind js/messaging.js's BroadcastChannel, for `host`:
// broadcastOpen(object, name) -> id, broadcastPost(id, message),
// broadcastClose(id), broadcastListening(id, listening).
std::span<const HostFunction> BroadcastChannelFunctions();

// Called by every Runtime as it starts and as it ends (liveness, above).
void NoteRuntimeStarted();
void NoteRuntimeEnded();

}  // namespace hostloop::runtime
