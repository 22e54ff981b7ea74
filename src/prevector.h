// prevector<N, T>: a vector of trivially copyable T that keeps up to N elements inline and more on the heap.
// Semantics: docs/semantics.md §5. Scripts use N = 36 (34-byte P2WSH/P2TR and 35-byte P2PK scripts stay
// inline, sizeof == 40); N = 28 is the value before the change and the comparison point.
//
// Representation: `size_` <= N means inline and is the element count; otherwise the elements live on the
// heap and the count is size_ - N - 1, so a heap prevector can hold <= N elements (after erase or clear).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace embedded {

template <unsigned int N, typename T, typename Size = uint32_t, typename Diff = int32_t>
class prevector {
  static_assert(std::is_trivially_copyable_v<T>, "elements are moved with memcpy/memmove");
  static_assert(N > 0);
  static_assert(std::is_unsigned_v<Size> && std::is_signed_v<Diff>);

 public:
  using value_type = T;
  using size_type = Size;
  using difference_type = Diff;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;

  // Largest element count: the size field must still encode it as count + N + 1.
  static constexpr size_type kMaxSize = std::numeric_limits<Size>::max() - N - 1;

  prevector() = default;
  explicit prevector(size_type n) { resize(n); }
  prevector(size_type n, const T& value) { assign(n, value); }
  template <std::input_iterator It>
  prevector(It first, It last) {
    assign(first, last);
  }

  // A copy holds exactly other.size() elements: inline when they fit, else a heap block of that size.
  prevector(const prevector& other) { assign(other.begin(), other.end()); }
  // Steals the heap block (if any); `other` is left empty and inline.
  prevector(prevector&& other) noexcept : size_(other.size_) {
    std::memcpy(storage_, other.storage_, sizeof storage_);
    other.size_ = 0;
  }

  // As in Bitcoin Core: assigning reuses this object's storage when it is large enough, so a heap
  // prevector stays on the heap even when the new contents would fit inline.
  prevector& operator=(const prevector& other) {
    if (&other != this) assign(other.begin(), other.end());
    return *this;
  }
  prevector& operator=(prevector&& other) noexcept {
    if (&other != this) {
      free_heap();
      std::memcpy(storage_, other.storage_, sizeof storage_);
      size_ = other.size_;
      other.size_ = 0;
    }
    return *this;
  }
  ~prevector() { free_heap(); }

  size_type size() const { return is_direct() ? size_ : size_ - N - 1; }
  bool empty() const { return size() == 0; }
  size_type capacity() const { return is_direct() ? N : heap_capacity(); }
  bool is_direct() const { return size_ <= N; }
  // Heap bytes owned: 0 inline, else sizeof(T) * capacity(). Feeds the coins cache's usage accounting.
  size_t allocated_memory() const { return is_direct() ? 0 : sizeof(T) * size_t{heap_capacity()}; }

  T* data() { return item(0); }
  const T* data() const { return item(0); }
  iterator begin() { return item(0); }
  const_iterator begin() const { return item(0); }
  iterator end() { return item(size()); }
  const_iterator end() const { return item(size()); }
  T& operator[](size_type i) { return *item(i); }
  const T& operator[](size_type i) const { return *item(i); }
  T& front() { return *item(0); }
  const T& front() const { return *item(0); }
  T& back() { return *item(size() - 1); }
  const T& back() const { return *item(size() - 1); }

  // Growth to exactly `n` if needed; never shrinks.
  void reserve(size_type n) {
    if (n > capacity()) change_capacity(checked_count(n));
  }
  // Back inline when the elements fit, else a heap block of exactly size().
  void shrink_to_fit() { change_capacity(size()); }
  // Never frees storage.
  void clear() { set_size(0); }

  // Growing reallocates to exactly `n` when needed; new elements are value-initialized.
  void resize(size_type n) {
    const size_type old = size();
    if (n <= old) {
      set_size(n);
      return;
    }
    if (n > capacity()) change_capacity(checked_count(n));
    std::memset(static_cast<void*>(item(old)), 0, (n - old) * sizeof(T));
    set_size(n);
  }
  // As resize, but new elements are left for the caller to write.
  void resize_uninitialized(size_type n) {
    if (n > capacity()) change_capacity(checked_count(n));
    set_size(n);
  }

  // Throws length_error past kMaxSize with the contents unchanged.
  void assign(size_type n, const T& value) {
    const T copy = value;  // `value` may alias an element
    checked_count(n);
    clear();
    if (n > capacity()) change_capacity(n);
    std::fill_n(item(0), n, copy);
    set_size(n);
  }
  template <std::input_iterator It>
  void assign(It first, It last) {
    if constexpr (std::contiguous_iterator<It>) {
      if (aliases(std::to_address(first))) {
        const prevector copy(first, last);
        assign(copy.begin(), copy.end());
        return;
      }
      const auto n = checked_count(std::distance(first, last));
      clear();
      if (n > capacity()) change_capacity(n);
      if (n > 0) std::memcpy(static_cast<void*>(item(0)), std::to_address(first), n * sizeof(T));
      set_size(n);
    } else {
      clear();
      for (; first != last; ++first) push_back(*first);
    }
  }

  // Inserting may reallocate to new_size + new_size / 2. `value` may alias an element of this prevector.
  iterator insert(iterator pos, const T& value) { return insert(pos, size_type{1}, value); }
  iterator insert(iterator pos, size_type count, const T& value) {
    const T copy = value;
    const size_type p = index_of(pos);
    T* at = open_gap(p, count);
    std::fill_n(at, count, copy);
    return at;
  }
  // The range may alias this prevector.
  template <std::input_iterator It>
  iterator insert(iterator pos, It first, It last) {
    const size_type p = index_of(pos);
    if constexpr (std::contiguous_iterator<It>) {
      if (aliases(std::to_address(first))) {
        const prevector copy(first, last);
        return insert(item(p), copy.begin(), copy.end());
      }
      const auto n = checked_count(std::distance(first, last));
      T* at = open_gap(p, n);
      if (n > 0) std::memcpy(static_cast<void*>(at), std::to_address(first), n * sizeof(T));
      return at;
    } else {
      size_type i = p;
      for (; first != last; ++first, ++i) insert(item(i), *first);
      return item(p);
    }
  }

  iterator erase(iterator pos) { return erase(pos, pos + 1); }
  // Never frees storage.
  iterator erase(iterator first, iterator last) {
    const size_type p = index_of(first);
    const size_type n = static_cast<size_type>(last - first);
    const size_type tail = size() - p - n;
    if (tail > 0) std::memmove(static_cast<void*>(item(p)), item(p + n), tail * sizeof(T));
    set_size(size() - n);
    return item(p);
  }

  void push_back(const T& value) { insert(end(), value); }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    const T value(std::forward<Args>(args)...);
    return *insert(end(), value);
  }
  void pop_back() { set_size(size() - 1); }

  void swap(prevector& other) noexcept {
    std::swap_ranges(storage_, storage_ + sizeof storage_, other.storage_);
    std::swap(size_, other.size_);
  }

  // Size first, then elements in order (unlike std::vector's purely lexicographic order).
  friend bool operator==(const prevector& a, const prevector& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator<(const prevector& a, const prevector& b) {
    if (a.size() != b.size()) return a.size() < b.size();
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  // Heap mode keeps a pointer and a capacity at the start of the storage, read and written with memcpy so
  // that the inline view of the same bytes needs no packing tricks.
  struct HeapHeader {
    T* items;
    size_type capacity;
  };
  static constexpr size_t kStorageBytes = std::max(sizeof(T) * N, sizeof(HeapHeader));

  HeapHeader header() const {
    HeapHeader h;
    std::memcpy(&h, storage_, sizeof h);
    return h;
  }
  void set_header(T* items, size_type cap) {
    const HeapHeader h{items, cap};
    std::memcpy(storage_, &h, sizeof h);
  }
  size_type heap_capacity() const { return header().capacity; }
  T* item(size_type i) { return (is_direct() ? reinterpret_cast<T*>(storage_) : header().items) + i; }
  const T* item(size_type i) const { return (is_direct() ? reinterpret_cast<const T*>(storage_) : header().items) + i; }
  // Keeps the current mode (inline or heap).
  void set_size(size_type n) { size_ = is_direct() ? n : n + N + 1; }
  void free_heap() {
    if (!is_direct()) std::free(header().items);
  }
  bool aliases(const T* p) const {
    const std::less<const T*> before;  // a total order even for pointers into unrelated objects
    return !before(p, item(0)) && before(p, item(0) + capacity());
  }
  size_type index_of(const_iterator pos) const { return static_cast<size_type>(pos - item(0)); }
  static size_type checked_count(std::integral auto n) {
    if (std::cmp_less(n, 0) || std::cmp_greater(n, kMaxSize)) {
      throw std::length_error("prevector: too many elements");
    }
    return static_cast<size_type>(n);
  }

  // Moves elements [p, size) up by `count`, growing to new_size + new_size / 2 if needed, and returns the
  // gap. The growth arithmetic is done in 64 bits and clamped so it cannot wrap around.
  T* open_gap(size_type p, size_type count) {
    const size_type old = size();
    if (uint64_t{count} > kMaxSize - old) throw std::length_error("prevector: too many elements");
    const size_type new_size = old + count;
    if (new_size > capacity()) {
      const uint64_t grown = uint64_t{new_size} + new_size / 2;
      change_capacity(static_cast<size_type>(std::min<uint64_t>(grown, kMaxSize)));
    }
    T* at = item(p);
    if (old > p) std::memmove(static_cast<void*>(at + count), at, (old - p) * sizeof(T));
    set_size(new_size);
    return at;
  }

  // Capacity <= N: go (or stay) inline. Otherwise a heap block of exactly `cap` elements.
  void change_capacity(size_type cap) {
    const size_type n = size();
    if (cap <= N) {
      if (is_direct()) return;
      T* old = header().items;
      std::memcpy(storage_, old, n * sizeof(T));
      std::free(old);
      size_ = n;
      return;
    }
    if (!is_direct()) {
      void* grown = std::realloc(header().items, sizeof(T) * size_t{cap});
      if (grown == nullptr) throw std::bad_alloc();
      set_header(static_cast<T*>(grown), cap);
      return;
    }
    void* fresh = std::malloc(sizeof(T) * size_t{cap});
    if (fresh == nullptr) throw std::bad_alloc();
    std::memcpy(fresh, storage_, n * sizeof(T));
    set_header(static_cast<T*>(fresh), cap);
    size_ = n + N + 1;
  }

  // A bare aligned array (not a struct, which would be padded to its alignment) so that size_ packs right
  // after it: sizeof(prevector<36, uint8_t>) == 40.
  alignas(alignof(T*) > alignof(T) ? alignof(T*) : alignof(T)) unsigned char storage_[kStorageBytes]{};
  size_type size_ = 0;
};

}  // namespace embedded
