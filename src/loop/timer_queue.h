// TimerQueue: the due-ordered store behind the ordered lane (JS timers,
// macrotasks, the application's own posts) and behind delayed internal-lane
// entries (V8's delayed tasks).
//
// Entries are ordered by (due, sequence): the earliest deadline first, and
// among equal deadlines the one posted first. Insert is O(log n) (a 4-ary
// min-heap); cancel-by-id is O(1) amortized: the entry stops counting at
// once, while its heap node is reclaimed when the top is next looked at or,
// once cancelled nodes are twice the live ones, by one O(n) rebuild at the
// next look at the top (the loop looks after every task) or Add(),
// whichever comes first (each rebuild is paid for by 2n cancels;
// at n it was 30% of a random cancel's time with 1M pending; the heap never
// grows past 3x the live entries). Not during the cancels themselves: a
// task's run of clearTimeout()s pays for no rebuild, and when it cancels
// nearly everything the one rebuild after it has almost nothing to sort
// (clearing 1M timers in the order they were set had rebuilt 333k, 111k, ...
// live nodes on the way, ~20% of the clears' time). The top
// accessors skip cancelled nodes first, so TopDue() is exact and a cleared
// timer never causes a wakeup. (Removing the node eagerly cost ~10 cache
// misses per cancel with 1M pending; so did pruning at once when the
// cancelled node was the top, which is every cancel when timers are cleared
// in the order they were set: deferred, a run of such cancels is mostly
// reclaimed by one rebuild instead.) Nodes do not know where their slot is
// and slots do not know where their node is: sifting moves 24-byte nodes
// only, and cancel marks are a bitmap, so a rebuild never touches the
// slots. Ids are not reused (see MakeId).
//
// Whether an id is live, its generation, its liveness bit and its owner sit
// in a dense array of 8-byte states beside the slots, and a task whose
// destructor does nothing (the usual small capture) is not destroyed at
// cancel but overwritten when its slot is reused: cancelling such an entry
// touches its state word, the bitmap and the heap's last node, never its
// 48-byte slot. (With 1M pending, the slots are 48 MB and a random one is a
// cache and TLB miss; the states are 8 MB.) The owner is in the state word so
// that a cancel checks it in the same load: one runtime's clearTimeout(n)
// must not cancel another runtime's entry n on the same thread.
//
// A call entry (AddCall: a JS timer) has no task and no slot contents: its
// facts are its node and its state word, and when it is taken the owner is
// told its id instead of given a task. A slot is constructed when a task
// first goes into it, so a queue of call entries never touches its slots
// (memory touched for the first time costs ~1.5 ns a byte on these VMs;
// with a task each, a million timers touched 48 MB more).
//
// Growing is cheap in memory touched: the slots and the plain-data arrays
// each live in a base::ReservedRegion, address space reserved for the most
// entries the queue can hold and made usable as it fills, so nothing ever
// moves or is copied (a vector's doubling moved every task and touched
// twice the memory), and past 2 MB each is backed by huge pages. With 1M
// timers pending, the 4 KB page faults of filling the queue (~10 us each on
// these VMs) had cost more than the queue's own work.
//
// Not thread-safe: the owner serializes access (home thread or its mutex).
#pragma once

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <vector>

#include "base/check.h"
#include "base/reserved_region.h"
#include "base/time.h"
#include "base/unique_function.h"

namespace hostloop::loop {

using base::Duration;
using base::Task;
using base::TimePoint;

// Per-entry facts the queue keeps for its owner.
struct TimerMeta {
  // Who posted the entry, so one poster's entries can be removed together
  // (an EventLoop shutting down). 0 = no owner.
  uint32_t owner = 0;
  // Whether the entry keeps its loop alive while pending (J3).
  bool keeps_alive = true;
  // Bits the owner defines (EventLoop marks non-nestable V8 tasks).
  uint8_t flags = 0;
  // Non-zero: a due-now entry that Looper::TakeChainedEntry may hand to a
  // running entry of the same owner that asks for this tag.
  uint8_t chain_tag = 0;
};

class TimerQueue {
 public:
  using Id = uint64_t;
  static constexpr Id kInvalidId = 0;

  using Meta = TimerMeta;

  TimerQueue() = default;
  ~TimerQueue();
  TimerQueue(const TimerQueue&) = delete;
  TimerQueue& operator=(const TimerQueue&) = delete;

  // Adds `task` (non-empty) due at `due`; `sequence` breaks ties between equal
  // deadlines and must grow with every post the owner makes.
  Id Add(TimePoint due, uint64_t sequence, Task task, Meta meta = {});
  // Adds a call entry: no task, Meta::owner `owner` and keeps_alive as
  // given (flags and chain_tag 0). PopTop() returns an empty Task for it;
  // its owner runs it by its id (TopIsCall(), TopId() first).
  Id AddCall(TimePoint due, uint64_t sequence, uint32_t owner, bool keeps_alive);

  // Removes the entry if it was added with Meta::owner `owner`; false for
  // an unknown or finished id, and for another owner's entry. The task's
  // destructor (if it does anything) runs before this returns, once the
  // queue is consistent again, so it may add or cancel entries itself.
  // Inline for the common case (a task whose destructor does nothing, whose
  // node is not the last leaf): a few instructions around one load of the
  // state word, so that the loads of consecutive cancels overlap.
  bool Cancel(Id id, uint32_t owner = 0) {
    const uint32_t slot_index = Find(id, owner);
    if (slot_index == kNoSlot) return false;
    if (!(states_[slot_index] & kTrivialTaskBit) || heap_.back().slot == slot_index) {
      return CancelSlot(slot_index);
    }
    // The task stays where it is (the slot's next entry overwrites it): the
    // slot is not touched at all.
    Retire(slot_index);
    MarkCancelled(slot_index);
    return true;
  }
  // Cancel() for each of `count` ids, in order; returns how many were
  // pending. Faster per id than one call each when the entries are spread
  // over a large queue: it fetches the state words of the ids a few places
  // ahead while it cancels, so their cache misses overlap instead of
  // following one another. (A batch of clearTimeout()s arrives this way.)
  std::size_t CancelMany(const Id* ids, std::size_t count, uint32_t owner = 0);
  // Cancel() that hands the task to the caller instead of destroying it,
  // so an owner that serializes access with a lock can destroy it after
  // unlocking. An empty task when Cancel() would return false.
  Task Take(Id id, uint32_t owner = 0);
  // Whether `id` names a pending entry (of any owner).
  bool Contains(Id id) const;
  // The id the next Add() will return (so a task can know its own id). Not
  // const: it makes the rebuild the next Add() would make first.
  Id NextId();

  // Pending (not cancelled) entries.
  std::size_t size() const { return heap_.size() - cancelled_; }
  // The most entries it holds (pending, or cancelled and not yet reclaimed).
  static constexpr uint32_t kCapacity = (1u << 23) - 1;
  // Slots holding an entry (pending, or cancelled and not yet reclaimed).
  std::size_t slots_in_use() const { return slot_count_ - free_slots_.size(); }
  bool empty() const { return size() == 0; }
  // Cancelled entries whose slots are not reclaimed yet (they count in
  // slots_in_use()).
  std::size_t cancelled() const { return cancelled_; }
  // Reclaims them now (one O(n) rebuild), so slots_in_use() == size().
  void ReclaimCancelled() {
    if (cancelled_ > 0) Compact();
  }
  // Tests: where the slots live (call entries must leave them untouched).
  const void* slots_for_testing() const { return slots_.data(); }
  // Pending entries with Meta::keeps_alive.
  std::size_t keep_alive_count() const { return keep_alive_count_; }

  // The earliest pending entry's key. Requires !empty(). Not const: they
  // first reclaim cancelled nodes at the top.
  TimePoint TopDue() { return TimePoint(Duration(Top().due_ns)); }
  uint64_t TopSequence() { return Top().sequence; }
  // The earliest entry's Meta (a call entry's: its owner and liveness).
  Meta TopMeta() {
    const uint32_t index = Top().slot;
    const State state = states_[index];
    if (state & kCallBit) return Meta{OwnerOf(state), (state & kKeepsAliveBit) != 0, 0, 0};
    return slot(index).meta;
  }
  // Its Meta::owner, without touching its slot.
  uint32_t TopOwner() { return OwnerOf(states_[Top().slot]); }
  // Whether it is a call entry, and its id.
  bool TopIsCall() { return (states_[Top().slot] & kCallBit) != 0; }
  Id TopId() {
    const uint32_t index = Top().slot;
    return MakeId(index, static_cast<uint32_t>(states_[index] & kGenerationMask));
  }

  // Removes the earliest entry and returns its task (empty for a call
  // entry). Requires !empty().
  Task PopTop();

  // Removes every entry posted by `owner`, appending their tasks to `out`
  // (to be destroyed once the queue is consistent), except tasks whose
  // destructor does nothing: those stay in their slots, as after a cancel,
  // until the slot is reused. O(n): for shutdown.
  void RemoveOwnedBy(uint32_t owner, std::vector<Task>* out);

 private:
  struct Node {
    int64_t due_ns;
    uint64_t sequence;
    uint32_t slot;
  };
  struct Slot {
    Task task;
    Meta meta;
  };
  // A slot's state word: whether it holds a pending entry, facts about that
  // entry a cancel needs (in the high half, its Meta::owner), and the slot's
  // generation (bumped whenever an entry leaves it).
  using State = uint64_t;
  static constexpr State kLiveBit = State{1} << 31;
  static constexpr State kKeepsAliveBit = State{1} << 30;
  static constexpr State kTrivialTaskBit = State{1} << 29;  // the task's destructor does nothing
  // A call entry (it has no task; kTrivialTaskBit is set too). Above the
  // generation, so a generation's wrap carries into it and Retire() clears
  // it with the rest.
  static constexpr State kCallBit = State{1} << 28;
  static constexpr State kGenerationMask = (State{1} << 28) - 1;
  static constexpr int kOwnerShift = 32;
  static uint32_t OwnerOf(State state) { return static_cast<uint32_t>(state >> kOwnerShift); }
  static constexpr std::size_t kArity = 4;

  // A growable array of plain data of at most `max` elements, in a
  // ReservedRegion (it never moves).
  template <typename T>
  class PodArray {
    static_assert(std::is_trivially_copyable_v<T>);

   public:
    explicit PodArray(std::size_t max) : region_(max * sizeof(T)) {}
    PodArray(const PodArray&) = delete;
    PodArray& operator=(const PodArray&) = delete;

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T& operator[](std::size_t i) { return data()[i]; }
    const T& operator[](std::size_t i) const { return data()[i]; }
    T& front() { return data()[0]; }
    const T& front() const { return data()[0]; }
    T& back() { return data()[size_ - 1]; }
    const T& back() const { return data()[size_ - 1]; }
    T* begin() { return data(); }
    T* end() { return data() + size_; }
    const T* begin() const { return data(); }
    const T* end() const { return data() + size_; }
    void pop_back() { --size_; }
    // Shrinks to `n` (<= size()).
    void truncate(std::size_t n) { size_ = n; }
    void push_back(const T& value) {
      if (size_ == capacity_) Grow();
      data()[size_++] = value;
    }

   private:
    T* data() { return static_cast<T*>(region_.data()); }
    const T* data() const { return static_cast<const T*>(region_.data()); }
    void Grow();

    base::ReservedRegion region_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
  };

  // The free slots, as a bitmap with two summary levels: Take() hands out
  // the lowest free slot in a few word reads, and a compaction frees the
  // cancelled slots by OR-ing the cancel bitmap in, one word per 64 slots.
  // (A free list pushed one index per slot: 667k pushes, 6-9 ms of a
  // compaction with 1M pending, most of it faulting in the list's pages.)
  class FreeSlots {
   public:
    std::size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    // Makes room for slots up to `slot_count` (all in use).
    void Cover(uint32_t slot_count) {
      while (bits_.size() * 64 < slot_count) bits_.push_back(0);
      while (summary_.size() * 64 < bits_.size()) summary_.push_back(0);
    }
    void Add(uint32_t slot) { AddWord(slot / 64, uint64_t{1} << (slot % 64)); }
    // Frees the slots whose bits are set in `bits` (not free yet), in word
    // `word` (slots word * 64 ... + 63).
    void AddWord(std::size_t word, uint64_t bits) {
      if (bits_[word] == 0) {
        const std::size_t group = word / 64;
        if (summary_[group] == 0) top_[group / 64] |= uint64_t{1} << (group % 64);
        summary_[group] |= uint64_t{1} << (word % 64);
      }
      bits_[word] |= bits;
      count_ += static_cast<std::size_t>(std::popcount(bits));
    }
    // The lowest free slot. Requires !empty().
    uint32_t Lowest() const {
      std::size_t top = 0;
      while (top_[top] == 0) ++top;
      const std::size_t group = top * 64 + static_cast<std::size_t>(std::countr_zero(top_[top]));
      const std::size_t word =
          group * 64 + static_cast<std::size_t>(std::countr_zero(summary_[group]));
      return static_cast<uint32_t>(word * 64 +
                                   static_cast<std::size_t>(std::countr_zero(bits_[word])));
    }
    // Takes the lowest free slot. Requires !empty().
    uint32_t Take() {
      const uint32_t slot = Lowest();
      const std::size_t word = slot / 64;
      bits_[word] &= bits_[word] - 1;  // its bit is the lowest set one
      if (bits_[word] == 0) {
        const std::size_t group = word / 64;
        summary_[group] &= ~(uint64_t{1} << (word % 64));
        if (summary_[group] == 0) top_[group / 64] &= ~(uint64_t{1} << (group % 64));
      }
      --count_;
      return slot;
    }

   private:
    PodArray<uint64_t> bits_{kCapacity / 64 + 1};       // bit i: slot i is free
    PodArray<uint64_t> summary_{kCapacity / 4096 + 1};  // bit w: bits_[w] != 0
    uint64_t top_[kCapacity / (4096 * 64) + 1] = {};    // bit g: summary_[g] != 0
    std::size_t count_ = 0;
  };

  static bool Before(const Node& a, const Node& b) { return Key(a) < Key(b); }
  // (due, sequence) as one unsigned 128-bit number (the due's sign bit
  // flipped keeps signed order): one compare with no branch, which matters
  // when the heap is rebuilt and children are compared at random.
  static unsigned __int128 Key(const Node& node) {
    const uint64_t due = static_cast<uint64_t>(node.due_ns) ^ (uint64_t{1} << 63);
    return (static_cast<unsigned __int128>(due) << 64) | node.sequence;
  }
  // Ids fit in 53 bits, so JS can hold them as numbers (JS timer ids are
  // these ids): 23 bits of slot (8M entries pending at most) and 28 of
  // generation. A stale id could only meet a new entry after its slot was
  // reused 2^28 times while the id was kept, and used, all along.
  static constexpr uint32_t kSlotBits = 23;
  static constexpr uint32_t kIdBits = kSlotBits + 28;
  static constexpr uint32_t kMaxSlots = (1u << kSlotBits) - 1;
  static_assert(kMaxSlots == kCapacity);
  static Id MakeId(uint32_t slot, uint32_t generation) {
    return (static_cast<uint64_t>(generation & kGenerationMask) << kSlotBits) |
           (static_cast<uint64_t>(slot) + 1);
  }

 public:
  // The slot part of an id (what JS indexes its timer records by).
  static uint32_t SlotOf(Id id) { return static_cast<uint32_t>(id & kMaxSlots); }

 private:
  Slot& slot(uint32_t index) { return static_cast<Slot*>(slots_.data())[index]; }
  const Slot& slot(uint32_t index) const { return static_cast<const Slot*>(slots_.data())[index]; }
  // A new slot at index slot_count_, not constructed: a task's Add()
  // constructs it (and marks it in constructed_bits_), a call entry leaves
  // it untouched, so memory a queue never fills (or fills with call
  // entries) is never touched. (Nor made usable: the region's first 2 MB
  // are faulted in as it grows, see ReservedRegion::Grow.)
  uint32_t AppendSlot();
  // Whether slot `index` holds a constructed Slot (its task may be empty).
  bool IsConstructed(uint32_t index) const {
    return (constructed_bits_[index / 64] >> (index % 64)) & 1;
  }
  // The slot for `index`, constructed if it was not yet.
  Slot& ConstructedSlot(uint32_t index) {
    uint64_t& word = constructed_bits_[index / 64];
    const uint64_t bit = uint64_t{1} << (index % 64);
    if (!(word & bit)) {
      const std::size_t end = (std::size_t{index} + 1) * sizeof(Slot);
      if (end > slots_.usable()) {
        CHECK_MSG(slots_.Grow(end), "out of memory growing the timer queue");
      }
      ::new (static_cast<void*>(&slot(index))) Slot();
      word |= bit;
    }
    return slot(index);
  }
  // The state word an entry added now to free slot `index` starts with.
  State NewEntryState(uint32_t index, uint32_t owner, bool keeps_alive) {
    State state = (states_[index] & kGenerationMask) | kLiveBit | (State{owner} << kOwnerShift);
    if (keeps_alive) {
      state |= kKeepsAliveBit;
      ++keep_alive_count_;
    }
    return state;
  }
  // A free slot for a new entry: the lowest free one, else a new one.
  uint32_t TakeSlot();
  // Puts the node of a new entry in slot `index` into the heap.
  void PushNode(TimePoint due, uint64_t sequence, uint32_t index);

  // The index of the live slot `id` names, or kNoSlot.
  static constexpr uint32_t kNoSlot = ~0u;
  uint32_t Find(Id id) const {
    // An id of slot 0 wraps to a huge index.
    const uint64_t index = (id & kMaxSlots) - 1;
    if (index >= slot_count_) return kNoSlot;
    const State state = states_[index];
    // (Compared in 64 bits: an id with bits above the generation's is no id.)
    if (!(state & kLiveBit) || (state & kGenerationMask) != (id >> kSlotBits)) return kNoSlot;
    return static_cast<uint32_t>(index);
  }
  // The same, if the entry is also `owner`'s: one compare of the state
  // word, its task-fact bits masked out.
  uint32_t Find(Id id, uint32_t owner) const {
    const uint64_t index = (id & kMaxSlots) - 1;
    if (index >= slot_count_) return kNoSlot;
    // (An id with bits above the generation's is no id: they would reach
    // the flag or owner bits of `expected`.)
    const State expected = (State{owner} << kOwnerShift) | kLiveBit | (id >> kSlotBits);
    if ((states_[index] & ~(kKeepsAliveBit | kTrivialTaskBit | kCallBit)) != expected ||
        (id >> kIdBits) != 0) {
      return kNoSlot;
    }
    return static_cast<uint32_t>(index);
  }
  // Cancel() of a live slot's entry, the general case.
  bool CancelSlot(uint32_t slot_index);
  // Marks a retired slot's node cancelled (it stays in the heap until the
  // top accessors or a compaction reclaim it).
  void MarkCancelled(uint32_t slot_index) {
    cancelled_bits_[slot_index / 64] |= uint64_t{1} << (slot_index % 64);
    ++cancelled_;
  }
  // Whether cancelled nodes are twice the live ones (or more), and enough
  // of them to be worth a rebuild.
  bool MostlyCancelled() const {
    return cancelled_ >= kMinCompaction && cancelled_ * 3 >= heap_.size() * 2;
  }

  // (`node` by reference: a 24-byte Node passed by value was copied with one
  // 16-byte load from two 8-byte stores just made, which cannot be
  // forwarded: ~70% of Add's time stalled there. It must not be in heap_.)
  void SiftUp(std::size_t index, const Node& node);
  // The earlier of heap_[index]'s children, or `size` (heap_.size(), which
  // the caller keeps: node writes may alias it) if it has none.
  std::size_t EarliestChild(std::size_t index, std::size_t size) const {
    std::size_t first_child = index * kArity + 1;
    if (first_child >= size) return size;
    std::size_t last_child = first_child + kArity < size ? first_child + kArity : size;
    std::size_t best = first_child;
    for (std::size_t child = first_child + 1; child < last_child; ++child) {
      if (Before(heap_[child], heap_[best])) best = child;
    }
    return best;
  }
  void SiftDown(std::size_t index, Node node);
  // Removes the top node (its slot is the caller's business): the last
  // leaf takes its place.
  void ReplaceTopWithLast();
  // The earliest live node, after reclaiming cancelled nodes above it.
  // Requires !empty().
  // (The loop looks at the top after every task: the rebuild that the
  // task's cancels call for is made there, whether or not the top itself
  // was cancelled. Popping a whole heap of cancelled nodes one by one would
  // be O(n log n); the rebuild leaves none.)
  const Node& Top() {
    if (MostlyCancelled()) {
      Compact();
    } else if (IsCancelled(heap_.front().slot)) {
      PruneTop();
    }
    return heap_.front();
  }
  // Reclaims cancelled nodes at the top, until the top is live (or the heap
  // is empty).
  void PruneTop();
  // Takes a retiring live entry's node out of the heap: at once when it is
  // the last leaf, else by marking it cancelled (the top accessors skip it,
  // and a compaction drops it once cancelled nodes are twice the live ones).
  void Unlink(uint32_t slot_index);
  // Rebuilds the heap without its cancelled nodes.
  static constexpr std::size_t kMinCompaction = 64;
  void Compact();
  // Ends a live slot's entry: its id dies and it stops counting. The task
  // stays in the slot; the slot itself is freed by the caller, now or when
  // its node goes.
  void Retire(uint32_t slot_index) {
    State& state = states_[slot_index];
    if (state & kKeepsAliveBit) --keep_alive_count_;
    // Not live (and no one's); its id is dead from now on.
    state = (state + 1) & kGenerationMask;
  }
  void FreeSlot(uint32_t slot_index);
  // Whether the slot's entry was cancelled while its node is still in the
  // heap. A bitmap beside the slots: compaction and pruning test it without
  // touching the slots (1M slots: 128 KB, cache-resident). It grows with
  // the slots.
  bool IsCancelled(uint32_t slot_index) const {
    return (cancelled_bits_[slot_index / 64] >> (slot_index % 64)) & 1;
  }

  // Every node holds a slot, so each array holds kMaxSlots at most.
  PodArray<Node> heap_{kMaxSlots};
  base::ReservedRegion slots_{std::size_t{kMaxSlots} * sizeof(Slot)};
  uint32_t slot_count_ = 0;
  PodArray<uint64_t> constructed_bits_{kMaxSlots / 64 + 1};  // bit i: slot i is constructed
  PodArray<State> states_{kMaxSlots};  // by slot index
  FreeSlots free_slots_;
  PodArray<uint64_t> cancelled_bits_{kMaxSlots / 64 + 1};
  std::size_t keep_alive_count_ = 0;
  std::size_t cancelled_ = 0;  // nodes in heap_ whose slot was cancelled
};

}  // namespace hostloop::loop
