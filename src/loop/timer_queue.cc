#include "loop/timer_queue.h"

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
  uint64_t slot_plus_one = id & 0xffffffffu;
  if (slot_plus_one == 0 || slot_plus_one > slots_.size()) return nullptr;
  const Slot& slot = slots_[slot_plus_one - 1];
  if (!slot.live || slot.generation != static_cast<uint32_t>(id >> 32)) return nullptr;
  return &slot;
}

bool TimerQueue::Contains(Id id) const { return Find(id) != nullptr; }

Task TimerQueue::Cancel(Id id) {
  const Slot* slot = Find(id);
  if (slot == nullptr) return Task();
  return RemoveAt(slot->heap_index);
}

Task TimerQueue::PopTop() {
  CHECK(!heap_.empty());
  return RemoveAt(0);
}

void TimerQueue::RemoveOwnedBy(uint32_t owner, std::vector<Task>* out) {
  std::vector<Node> kept;
  kept.reserve(heap_.size());
  for (const Node& node : heap_) {
    Slot& slot = slots_[node.slot];
    if (slot.meta.owner != owner) {
      kept.push_back(node);
      continue;
    }
    out->push_back(std::move(slot.task));
    if (slot.meta.keeps_alive) --keep_alive_count_;
    slot.live = false;
    ++slot.generation;
    free_slots_.push_back(node.slot);
  }
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
  Slot& slot = slots_[heap_[index].slot];
  Task task = std::move(slot.task);
  if (slot.meta.keeps_alive) --keep_alive_count_;
  slot.live = false;
  ++slot.generation;
  free_slots_.push_back(heap_[index].slot);

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
