#include "loop/timer_queue.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "base/check.h"

namespace hostloop::loop {

TimerQueue::Id TimerQueue::Add(TimePoint due, uint64_t sequence, Task task, Meta meta) {
  CHECK(task);
  uint32_t slot_index;
  if (!free_slots_.empty()) {
    slot_index = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot_index = static_cast<uint32_t>(slots_.size());
    CHECK_MSG(slot_index < kMaxSlots, "more than 8M timers pending");
    slots_.emplace_back();
  }
  Slot& slot = slots_[slot_index];
  slot.task = std::move(task);
  slot.live = true;
  slot.meta = meta;
  if (meta.keeps_alive) ++keep_alive_count_;

  heap_.push_back({});
  SiftUp(heap_.size() - 1, Node{due.time_since_epoch().count(), sequence, slot_index});
  return MakeId(slot_index, slot.generation);
}

const TimerQueue::Slot* TimerQueue::Find(Id id) const {
  uint64_t slot_plus_one = id & kMaxSlots;
  if (slot_plus_one == 0 || slot_plus_one > slots_.size()) return nullptr;
  const Slot& slot = slots_[slot_plus_one - 1];
  if (!slot.live || (slot.generation & kGenerationMask) != static_cast<uint32_t>(id >> kSlotBits)) {
    return nullptr;
  }
  return &slot;
}

bool TimerQueue::Contains(Id id) const { return Find(id) != nullptr; }

TimerQueue::Id TimerQueue::NextId() const {
  if (!free_slots_.empty()) {
    uint32_t slot = free_slots_.back();
    return MakeId(slot, slots_[slot].generation);
  }
  return MakeId(static_cast<uint32_t>(slots_.size()), 0);
}

Task TimerQueue::Cancel(Id id) {
  const Slot* found = Find(id);
  if (found == nullptr) return Task();
  Slot& slot = slots_[static_cast<std::size_t>(found - slots_.data())];
  Task task = std::move(slot.task);
  if (slot.meta.keeps_alive) --keep_alive_count_;
  slot.live = false;
  slot.cancelled = true;
  ++slot.generation;  // the id is dead from now on
  uint32_t slot_index = static_cast<uint32_t>(&slot - slots_.data());
  if (slot.heap_index + 1 == heap_.size()) {
    // The last leaf leaves at no cost (a timer cancelled soon after it was
    // set usually sits there).
    heap_.pop_back();
    FreeSlot(slot_index);
    return task;
  }
  ++cancelled_;
  if (slot.heap_index == 0) PruneTop();
  MaybeCompact();
  return task;
}

Task TimerQueue::PopTop() {
  CHECK(!heap_.empty());
  Task task = RemoveAt(0);
  PruneTop();
  return task;
}

void TimerQueue::FreeSlot(uint32_t slot_index) {
  Slot& slot = slots_[slot_index];
  slot.live = false;
  slot.cancelled = false;
  free_slots_.push_back(slot_index);
}

void TimerQueue::PruneTop() {
  while (!heap_.empty() && slots_[heap_.front().slot].cancelled) {
    uint32_t slot_index = heap_.front().slot;
    --cancelled_;
    Node last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) SiftDown(0, last);
    FreeSlot(slot_index);
  }
}

void TimerQueue::MaybeCompact() {
  if (cancelled_ < 64 || cancelled_ * 2 < heap_.size()) return;
  std::size_t kept = 0;
  const std::size_t freed_before = free_slots_.size();
  for (const Node& node : heap_) {
    if (slots_[node.slot].cancelled) {
      FreeSlot(node.slot);
    } else {
      heap_[kept++] = node;
    }
  }
  heap_.resize(kept);
  cancelled_ = 0;
  // Reuse the low slots this compaction freed first (Add takes from the
  // back): new entries then sit close together in memory instead of wherever
  // the compaction left holes. Only the new part is sorted, so a run of
  // compactions while a million timers drain stays O(n log n) in total.
  std::sort(free_slots_.begin() + static_cast<std::ptrdiff_t>(freed_before), free_slots_.end(),
            std::greater<uint32_t>());
  for (std::size_t i = 0; i < heap_.size(); ++i) slots_[heap_[i].slot].heap_index = static_cast<uint32_t>(i);
  for (std::size_t i = heap_.size() / kArity + 1; i-- > 0;) {
    if (i < heap_.size()) SiftDown(i, heap_[i]);
  }
}

void TimerQueue::RemoveOwnedBy(uint32_t owner, std::vector<Task>* out) {
  std::vector<Node> kept;
  kept.reserve(heap_.size());
  for (const Node& node : heap_) {
    Slot& slot = slots_[node.slot];
    if (slot.cancelled) {
      FreeSlot(node.slot);  // reclaimed on the way
      continue;
    }
    if (slot.meta.owner != owner) {
      kept.push_back(node);
      continue;
    }
    out->push_back(std::move(slot.task));
    if (slot.meta.keeps_alive) --keep_alive_count_;
    ++slot.generation;
    FreeSlot(node.slot);
  }
  cancelled_ = 0;
  // Rebuild the heap bottom-up: O(n).
  heap_ = std::move(kept);
  for (std::size_t i = 0; i < heap_.size(); ++i) slots_[heap_[i].slot].heap_index = i;
  for (std::size_t i = heap_.size() / kArity + 1; i-- > 0;) {
    if (i < heap_.size()) SiftDown(i, heap_[i]);
  }
}

void TimerQueue::Place(std::size_t index, const Node& node) {
  heap_[index] = node;
  slots_[node.slot].heap_index = static_cast<uint32_t>(index);
}

void TimerQueue::SiftUp(std::size_t index, Node node) {
  while (index > 0) {
    std::size_t parent = (index - 1) / kArity;
    if (!Before(node, heap_[parent])) break;
    Place(index, heap_[parent]);
    index = parent;
  }
  Place(index, node);
}

void TimerQueue::SiftDown(std::size_t index, Node node) {
  const std::size_t size = heap_.size();
  while (true) {
    std::size_t first_child = index * kArity + 1;
    if (first_child >= size) break;
    std::size_t last_child = first_child + kArity < size ? first_child + kArity : size;
    std::size_t best = first_child;
    for (std::size_t child = first_child + 1; child < last_child; ++child) {
      if (Before(heap_[child], heap_[best])) best = child;
    }
    if (!Before(heap_[best], node)) break;
    Place(index, heap_[best]);
    index = best;
  }
  Place(index, node);
}

Task TimerQueue::RemoveAt(std::size_t index) {
  uint32_t slot_index = heap_[index].slot;
  Slot& slot = slots_[slot_index];
  Task task = std::move(slot.task);
  if (slot.meta.keeps_alive) --keep_alive_count_;
  ++slot.generation;
  FreeSlot(slot_index);

  Node last = heap_.back();
  heap_.pop_back();
  if (index < heap_.size()) {
    // The last leaf fills the hole; it may belong above or below it.
    if (index > 0 && Before(last, heap_[(index - 1) / kArity])) {
      SiftUp(index, last);
    } else {
      SiftDown(index, last);
    }
  }
  return task;
}

}  // namespace hostloop::loop
