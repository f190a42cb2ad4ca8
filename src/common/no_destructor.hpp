/// @brief A value built on first use and never destroyed.
#pragma once

#include <new>
#include <utility>

namespace sc {

/// Holds a T built in place and never destroyed: the static tables the checks read (stop words,
/// English tables, the cache registry...). At interpreter exit, pool threads and daemon threads may
/// still be checking while function-local statics are torn down, so those tables must outlive
/// them. Unlike a heap object that is never freed, nothing is allocated.
template <class T>
class NoDestructor {
 public:
  template <class... Args>
  explicit NoDestructor(Args&&... args) {
    ::new (static_cast<void*>(storage_)) T(std::forward<Args>(args)...);
  }
  NoDestructor(const NoDestructor&) = delete;
  NoDestructor& operator=(const NoDestructor&) = delete;
  ~NoDestructor() = default;  // deliberately leaves the T alive

  T& operator*() noexcept { return *get(); }
  const T& operator*() const noexcept { return *get(); }
  T* operator->() noexcept { return get(); }
  const T* operator->() const noexcept { return get(); }

 private:
  T* get() noexcept { return std::launder(reinterpret_cast<T*>(storage_)); }
  const T* get() const noexcept { return std::launder(reinterpret_cast<const T*>(storage_)); }

  alignas(T) unsigned char storage_[sizeof(T)];
};

}  // namespace sc
