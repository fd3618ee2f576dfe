// A move-only callable with inline storage, so posting a small lambda (a few
// pointers of capture) allocates nothing. Like C++23 std::move_only_function.
#pragma once

#include <cstddef>
#include <functional>
#include <new>
#include <type_traits>
#include <utility>

#include "base/check.h"

namespace hostloop::base {

template <typename Signature>
class UniqueFunction;

template <typename R, typename... Args>
class UniqueFunction<R(Args...)> {
 public:
  // Callables up to this size (pointer-aligned and nothrow-movable) are
  // stored inline. (Pointer alignment keeps a Task at 40 bytes, where
  // max_align_t's 16 padded it to 48 for captures that never need it.)
  static constexpr std::size_t kInlineSize = 32;

  UniqueFunction() = default;
  UniqueFunction(std::nullptr_t) {}  // NOLINT(google-explicit-constructor)

  template <typename F, typename D = std::decay_t<F>,
            typename = std::enable_if_t<!std::is_same_v<D, UniqueFunction> &&
                                        std::is_invocable_r_v<R, D&, Args...>>>
  UniqueFunction(F&& f) {  // NOLINT(google-explicit-constructor)
    if constexpr (kFitsInline<D>) {
      ::new (static_cast<void*>(storage_)) D(std::forward<F>(f));
      ops_ = &kInlineOps<D>;
    } else {
      HeapPointer() = new D(std::forward<F>(f));
      ops_ = &kHeapOps<D>;
    }
  }

  UniqueFunction(UniqueFunction&& other) noexcept { MoveFrom(other); }
  UniqueFunction& operator=(UniqueFunction&& other) noexcept {
    if (this != &other) {
      Reset();
      MoveFrom(other);
    }
    return *this;
  }
  UniqueFunction& operator=(std::nullptr_t) noexcept {
    Reset();
    return *this;
  }
  UniqueFunction(const UniqueFunction&) = delete;
  UniqueFunction& operator=(const UniqueFunction&) = delete;
  ~UniqueFunction() { Reset(); }

  explicit operator bool() const { return ops_ != nullptr; }

  R operator()(Args... args) {
    DCHECK(ops_ != nullptr);
    return ops_->invoke(storage_, std::forward<Args>(args)...);
  }

  // Whether destroying the held callable does nothing: empty, or stored
  // inline with a trivial destructor. (A store may then leave a discarded
  // callable where it is and overwrite it later, touching no memory now.)
  bool IsTriviallyDestructible() const { return ops_ == nullptr || ops_->trivially_destructible; }

  // Destroys the held callable (running its destructor) and becomes empty.
  void Reset() noexcept {
    if (ops_ != nullptr) {
      const Ops* ops = std::exchange(ops_, nullptr);
      ops->destroy(storage_);
    }
  }

 private:
  struct Ops {
    R (*invoke)(void* storage, Args&&... args);
    // Moves the callable from one storage to another; `from` ends destroyed.
    void (*relocate)(void* from, void* to) noexcept;
    void (*destroy)(void* storage) noexcept;
    bool trivially_destructible;
  };

  template <typename D>
  static constexpr bool kFitsInline = sizeof(D) <= kInlineSize &&
                                      alignof(D) <= alignof(void*) &&
                                      std::is_nothrow_move_constructible_v<D>;

  template <typename D>
  static constexpr Ops kInlineOps = {
      [](void* s, Args&&... args) -> R {
        return std::invoke(*std::launder(static_cast<D*>(s)), std::forward<Args>(args)...);
      },
      [](void* from, void* to) noexcept {
        D* source = std::launder(static_cast<D*>(from));
        ::new (to) D(std::move(*source));
        source->~D();
      },
      [](void* s) noexcept { std::launder(static_cast<D*>(s))->~D(); },
      std::is_trivially_destructible_v<D>,
  };

  template <typename D>
  static constexpr Ops kHeapOps = {
      [](void* s, Args&&... args) -> R {
        return std::invoke(**static_cast<D**>(s), std::forward<Args>(args)...);
      },
      [](void* from, void* to) noexcept { *static_cast<D**>(to) = *static_cast<D**>(from); },
      [](void* s) noexcept { delete *static_cast<D**>(s); },
      false,
  };

  void*& HeapPointer() { return *reinterpret_cast<void**>(storage_); }

  void MoveFrom(UniqueFunction& other) noexcept {
    if (other.ops_ != nullptr) {
      other.ops_->relocate(other.storage_, storage_);
      ops_ = std::exchange(other.ops_, nullptr);
    }
  }

  alignas(void*) unsigned char storage_[kInlineSize];
  const Ops* ops_ = nullptr;
};

// The unit of work every lane carries.
using Task = UniqueFunction<void()>;

}  // namespace hostloop::base
