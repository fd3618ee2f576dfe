// RingQueue: a FIFO in one growable circular buffer. Unlike std::deque, which
// allocates a 512-byte block every few elements and frees it when they are
// popped, a RingQueue allocates only when it outgrows its buffer, so a queue
// that fills and drains over and over (a loop's due-now lane) stops
// allocating once it has grown. A buffer larger than kKeptCapacity is freed
// when the queue empties, so a one-off burst does not pin its memory.
#pragma once

#include <cstddef>
#include <new>
#include <utility>

#include "base/check.h"

namespace hostloop::base {

template <typename T>
class RingQueue {
 public:
  RingQueue() = default;
  RingQueue(const RingQueue&) = delete;
  RingQueue& operator=(const RingQueue&) = delete;
  ~RingQueue() {
    clear();
    Release(slots_);
  }

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  T& front() {
    DCHECK(size_ > 0);
    return slots_[head_];
  }
  const T& front() const {
    DCHECK(size_ > 0);
    return slots_[head_];
  }
  // The i-th element from the front.
  T& operator[](std::size_t i) {
    DCHECK(i < size_);
    return slots_[(head_ + i) & (capacity_ - 1)];
  }

  void push_back(T&& value) {
    if (size_ == capacity_) Grow();
    ::new (static_cast<void*>(&slots_[(head_ + size_) & (capacity_ - 1)])) T(std::move(value));
    ++size_;
  }
  void push_front(T&& value) {
    if (size_ == capacity_) Grow();
    head_ = (head_ + capacity_ - 1) & (capacity_ - 1);
    ::new (static_cast<void*>(&slots_[head_])) T(std::move(value));
    ++size_;
  }
  void pop_front() {
    DCHECK(size_ > 0);
    slots_[head_].~T();
    head_ = (head_ + 1) & (capacity_ - 1);
    if (--size_ == 0 && capacity_ > kKeptCapacity) {
      Release(std::exchange(slots_, nullptr));
      capacity_ = 0;
      head_ = 0;
    }
  }
  std::size_t capacity() const { return capacity_; }

  static constexpr std::size_t kKeptCapacity = 1024;
  // Removes the i-th element: the ones before it move back by one (O(i)).
  void erase(std::size_t i) {
    DCHECK(i < size_);
    for (std::size_t j = i; j > 0; --j) (*this)[j] = std::move((*this)[j - 1]);
    pop_front();
  }
  void swap(RingQueue& other) noexcept {
    std::swap(slots_, other.slots_);
    std::swap(head_, other.head_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }
  // Destroys every element, front first; the buffer stays.
  void clear() {
    while (size_ > 0) pop_front();
    head_ = 0;
  }

 private:
  static T* Allocate(std::size_t count) {
    return static_cast<T*>(::operator new(count * sizeof(T), std::align_val_t{alignof(T)}));
  }
  static void Release(T* slots) {
    if (slots != nullptr) ::operator delete(slots, std::align_val_t{alignof(T)});
  }
  // Doubles the buffer (a power of two, so indices wrap with a mask), moving
  // the elements to its start in order.
  void Grow() {
    std::size_t capacity = capacity_ == 0 ? 16 : capacity_ * 2;
    T* slots = Allocate(capacity);
    for (std::size_t i = 0; i < size_; ++i) {
      T& old = (*this)[i];
      ::new (static_cast<void*>(&slots[i])) T(std::move(old));
      old.~T();
    }
    Release(slots_);
    slots_ = slots;
    capacity_ = capacity;
    head_ = 0;
  }

  T* slots_ = nullptr;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;  // 0 or a power of two
};

}  // namespace hostloop::base
