#include "loop/timer_queue.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <new>
#include <utility>

#include "base/check.h"

namespace hostloop::loop {

template <typename T>
void TimerQueue::PodArray<T>::Grow() {
  CHECK_MSG(region_.Grow((size_ + 1) * sizeof(T)), "out of memory growing the timer queue");
  capacity_ = region_.usable() / sizeof(T);
}

TimerQueue::~TimerQueue() {
  for (uint32_t i = 0; i < slot_count_; ++i) {
    if (IsConstructed(i)) slot(i).~Slot();
  }
}

uint32_t TimerQueue::AppendSlot() {
  CHECK_MSG(slot_count_ < kMaxSlots, "more than 8M timers pending");
  states_.push_back(0);
  if (slot_count_ % 64 == 0) {
    cancelled_bits_.push_back(0);
    constructed_bits_.push_back(0);
  }
  free_slots_.Cover(slot_count_ + 1);
  return slot_count_++;
}

uint32_t TimerQueue::TakeSlot() {
  if (MostlyCancelled()) Compact();
  return free_slots_.empty() ? AppendSlot() : free_slots_.Take();
}

void TimerQueue::PushNode(TimePoint due, uint64_t sequence, uint32_t index) {
  heap_.push_back({});
  SiftUp(heap_.size() - 1, Node{due.time_since_epoch().count(), sequence, index});
}

TimerQueue::Id TimerQueue::Add(TimePoint due, uint64_t sequence, Task task, Meta meta) {
  CHECK(task);
  const uint32_t slot_index = TakeSlot();
  State state = NewEntryState(slot_index, meta.owner, meta.keeps_alive);
  if (task.IsTriviallyDestructible()) state |= kTrivialTaskBit;
  states_[slot_index] = state;
  Slot& entry = ConstructedSlot(slot_index);
  entry.task = std::move(task);  // (destroys what a cancel may have left)
  entry.meta = meta;
  PushNode(due, sequence, slot_index);
  return MakeId(slot_index, static_cast<uint32_t>(state & kGenerationMask));
}

TimerQueue::Id TimerQueue::AddCall(TimePoint due, uint64_t sequence, uint32_t owner,
                                   bool keeps_alive) {
  const uint32_t slot_index = TakeSlot();
  // (A task a cancel left in the slot stays there: nothing to destroy.)
  const State state = NewEntryState(slot_index, owner, keeps_alive) | kCallBit | kTrivialTaskBit;
  states_[slot_index] = state;
  PushNode(due, sequence, slot_index);
  return MakeId(slot_index, static_cast<uint32_t>(state & kGenerationMask));
}

bool TimerQueue::Contains(Id id) const { return Find(id) != kNoSlot; }

TimerQueue::Id TimerQueue::NextId() {
  if (MostlyCancelled()) Compact();
  if (!free_slots_.empty()) {
    uint32_t index = free_slots_.Lowest();
    return MakeId(index, static_cast<uint32_t>(states_[index] & kGenerationMask));
  }
  return MakeId(slot_count_, 0);
}

bool TimerQueue::CancelSlot(uint32_t slot_index) {
  if (states_[slot_index] & kTrivialTaskBit) {
    Unlink(slot_index);
    return true;
  }
  Task doomed = std::move(slot(slot_index).task);
  Unlink(slot_index);
  return true;  // `doomed` is destroyed here, the queue consistent
}

Task TimerQueue::Take(Id id, uint32_t owner) {
  const uint32_t slot_index = Find(id, owner);
  if (slot_index == kNoSlot) return Task();
  CHECK_MSG(!(states_[slot_index] & kCallBit), "Take() of a call entry");
  Task task = std::move(slot(slot_index).task);
  Unlink(slot_index);
  return task;
}

std::size_t TimerQueue::CancelMany(const Id* ids, std::size_t count, uint32_t owner) {
  // How far ahead to fetch: enough misses in flight to hide a memory
  // round trip behind the cancels in between (16 and 32 measured alike, 8
  // slower), few enough that the fetched lines (two per id) are still in L1
  // when their turn comes.
  constexpr std::size_t kAhead = 32;
  std::size_t cancelled = 0;
  for (std::size_t i = 0; i < count; ++i) {
    // Fetch the state word and cancel-bit word of the id kAhead places on
    // (the first kAhead ids take their misses). A hint only: a destructor
    // may add entries and move the arrays before that id's turn, which then
    // costs its miss and nothing else. (Written out here, not as a helper
    // function: GCC 12 treats a function whose only effect is a prefetch
    // as const, and drops its calls.)
    if (i + kAhead < count) {
      // The slot index; an id of slot 0 wraps to a huge index and is skipped.
      uint64_t index = (ids[i + kAhead] & kMaxSlots) - 1;
      if (index < slot_count_) {
        __builtin_prefetch(&states_[index]);
        __builtin_prefetch(&cancelled_bits_[index / 64]);
      }
    }
    cancelled += Cancel(ids[i], owner);
  }
  return cancelled;
}

void TimerQueue::Unlink(uint32_t slot_index) {
  Retire(slot_index);
  if (heap_.back().slot == slot_index) {
    // The last leaf leaves at no cost (a timer cancelled soon after it was
    // set usually sits there).
    heap_.pop_back();
    FreeSlot(slot_index);
    return;
  }
  MarkCancelled(slot_index);
}

Task TimerQueue::PopTop() {
  CHECK(!empty());
  Top();
  uint32_t slot_index = heap_.front().slot;
  Task task;
  if (!(states_[slot_index] & kCallBit)) task = std::move(slot(slot_index).task);
  Retire(slot_index);
  FreeSlot(slot_index);
  ReplaceTopWithLast();
  return task;
}

void TimerQueue::FreeSlot(uint32_t slot_index) {
  // The slot is already not live; only the cancelled bit and the free set
  // change, so compaction frees slots without touching them.
  cancelled_bits_[slot_index / 64] &= ~(uint64_t{1} << (slot_index % 64));
  free_slots_.Add(slot_index);
}

void TimerQueue::PruneTop() {
  while (!heap_.empty() && IsCancelled(heap_.front().slot)) {
    uint32_t slot_index = heap_.front().slot;
    --cancelled_;
    ReplaceTopWithLast();
    FreeSlot(slot_index);
  }
}

void TimerQueue::Compact() {
  // When the bitmap is small next to the number cancelled, its words are
  // moved into the free set whole; otherwise each cancelled node's slot is
  // freed on the way.
  const bool scan_bitmap = cancelled_bits_.size() <= cancelled_ * 4;
  const std::size_t freed_before = free_slots_.size();
  std::size_t kept = 0;
  for (const Node& node : heap_) {
    if (!IsCancelled(node.slot)) {
      heap_[kept++] = node;
    } else if (!scan_bitmap) {
      FreeSlot(node.slot);
    }
  }
  if (scan_bitmap) {
    for (std::size_t word = 0; word < cancelled_bits_.size(); ++word) {
      if (cancelled_bits_[word] == 0) continue;
      free_slots_.AddWord(word, cancelled_bits_[word]);
      cancelled_bits_[word] = 0;
    }
  }
  DCHECK(free_slots_.size() - freed_before == cancelled_);
  heap_.truncate(kept);
  cancelled_ = 0;
  for (std::size_t i = heap_.size() / kArity + 1; i-- > 0;) {
    if (i < heap_.size()) SiftDown(i, heap_[i]);
  }
}

void TimerQueue::RemoveOwnedBy(uint32_t owner, std::vector<Task>* out) {
  std::size_t kept = 0;
  for (const Node& node : heap_) {
    if (IsCancelled(node.slot)) {
      FreeSlot(node.slot);  // reclaimed on the way
      continue;
    }
    const State state = states_[node.slot];
    if (OwnerOf(state) != owner) {
      heap_[kept++] = node;
      continue;
    }
    // A task with nothing to destroy stays in its slot, as a cancel leaves
    // it (the slot's next Add() overwrites it), and a call entry has none:
    // a runtime that ends with a million timers pending moved each task
    // into `out` first, a third of a second here.
    if ((state & kTrivialTaskBit) == 0) out->push_back(std::move(slot(node.slot).task));
    Retire(node.slot);
    FreeSlot(node.slot);
  }
  cancelled_ = 0;
  // Rebuild the heap bottom-up: O(n).
  heap_.truncate(kept);
  for (std::size_t i = heap_.size() / kArity + 1; i-- > 0;) {
    if (i < heap_.size()) SiftDown(i, heap_[i]);
  }
}

void TimerQueue::SiftUp(std::size_t index, const Node& node) {
  // The fields are read one by one and the node stored from registers: a
  // 16-byte copy of a Node that its caller has just stored 8 bytes at a
  // time stalls (see the declaration).
  const Node moving{node.due_ns, node.sequence, node.slot};
  const unsigned __int128 key = Key(moving);
  while (index > 0) {
    std::size_t parent = (index - 1) / kArity;
    if (!(key < Key(heap_[parent]))) break;
    heap_[index] = heap_[parent];
    index = parent;
  }
  Node& hole = heap_[index];
  hole.due_ns = moving.due_ns;
  hole.sequence = moving.sequence;
  hole.slot = moving.slot;
}

void TimerQueue::SiftDown(std::size_t index, Node node) {
  const std::size_t size = heap_.size();
  for (std::size_t best; (best = EarliestChild(index, size)) < size && Before(heap_[best], node);
       index = best) {
    heap_[index] = heap_[best];
  }
  heap_[index] = node;
}

void TimerQueue::ReplaceTopWithLast() {
  Node last = heap_.back();
  heap_.pop_back();
  const std::size_t size = heap_.size();
  if (size == 0) return;
  // The last leaf belongs near the bottom (it was added late, or it would
  // have risen): move the hole down along the earlier child of each level
  // to a leaf, three comparisons a level, then let the leaf rise from
  // there, rather than also comparing it at every level on the way down.
  std::size_t index = 0;
  for (std::size_t best; (best = EarliestChild(index, size)) < size; index = best) {
    heap_[index] = heap_[best];
  }
  SiftUp(index, last);
}

}  // namespace hostloop::loop
