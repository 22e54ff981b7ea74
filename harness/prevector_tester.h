// PrevectorTester: applies one operation at a time to two prevector<N, T> objects and to two std::vector<T>
// references, then checks they agree.
//
// Modelled: contents, the capacity policy of docs/semantics.md §5 (exact capacity after every operation), inline/heap
// state (also from where data() points), allocated_memory(), ==, the size-first operator<, serialized bytes,
// self-aliasing inserts and assigns, copies, moves and swaps between the two objects.
// Not modelled: allocation failure and the length_error past kMaxSize (sizes here stay below kMaxLen).
//
// Operations (stable IDs; add new ones at the end): see PrevectorOp.
#pragma once

#include <array>
#include <bit>
#include <cstring>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "check.h"
#include "seam/prevector.h"
#include "seam/types.h"

namespace harness {

enum class PrevectorOp : uint8_t {
  kInsert = 0,               // insert(pos, value)
  kInsertCount = 1,          // insert(pos, count, value)
  kInsertRange = 2,          // insert(pos, first, last) from an outside array
  kEraseOne = 3,             // erase(pos)
  kEraseRange = 4,           // erase(pos, pos + count)
  kResize = 5,               // resize(count)
  kResizeUninitialized = 6,  // resize_uninitialized(count), then the new elements are written
  kReserve = 7,              // reserve(count)
  kShrinkToFit = 8,          // shrink_to_fit()
  kClear = 9,                // clear()
  kAssignCount = 10,         // assign(count, value)
  kAssignRange = 11,         // assign(first, last) from an outside array
  kPushBack = 12,            // push_back(value)
  kPopBack = 13,             // pop_back()
  kEmplaceBack = 14,         // emplace_back(value)
  kSwap = 15,                // swap(side, other)
  kCopyAssign = 16,          // side = other
  kMoveAssign = 17,          // side = std::move(other)
  kCopyConstruct = 18,       // side is destroyed and copy-constructed from other
  kMoveConstruct = 19,       // side is destroyed and move-constructed from other
  kInsertSelf = 20,          // insert(pos, count, side[index]): the value aliases an element
  kInsertSelfRange = 21,     // insert(pos, begin + index, begin + index + count)
  kAssignSelfRange = 22,     // assign(begin + index, begin + index + count)
  kSet = 23,                 // side[index] = value
  kSelfCopyAssign = 24,      // side = side
};
inline constexpr uint8_t kPrevectorOpCount = 25;

const char* ToString(PrevectorOp op);

// One operation with its arguments as applied (positions already reduced to valid ones).
struct PrevectorStep {
  PrevectorOp op{};
  uint8_t side = 0;   // which of the two objects is changed; the other is the source for copies/moves
  uint32_t pos = 0;    // where to insert, erase or set
  uint32_t index = 0;  // the aliased element (self operations)
  uint32_t count = 0;
  uint32_t value = 0;  // truncated to T; seeds the values of outside ranges
  std::string ToString() const;
};

template <unsigned int N, typename T>
class PrevectorTester {
 public:
  using Pre = seam::Prevector<N, T>;
  // Operations that would grow past this are skipped: past 2N + 3 (the sweep bound), small enough to keep
  // each check cheap.
  static constexpr uint32_t kMaxLen = 3 * N + 8;
  // The longest serialization: a 1-byte CompactSize (kMaxLen < 253) and the elements.
  static constexpr size_t kMaxBytes = 1 + kMaxLen * sizeof(T);
  static_assert(kMaxLen < 253);
  static_assert(std::endian::native == std::endian::little, "the serialization check compares memory images");

  // Reference and scratch storage is reserved once for the largest length, so that growing them costs no
  // allocations per step: under ASan those dominated the target's time.
  PrevectorTester() {
    for (auto& p : pre_) p.emplace();
    for (auto& v : ref_) v.reserve(kMaxLen);
    subject_bytes_.reserve(kMaxBytes);
  }

  // Reduces the step's arguments to valid ones, applies it to both sides, records it, and checks. Returns
  // false (and changes nothing) when the step does not apply, e.g. pop_back on an empty vector.
  bool Apply(PrevectorStep step);

 private:
  // Reduces the arguments to valid ones; false when the step does not apply (e.g. pop_back when empty).
  HARNESS_NO_FUZZ_COVERAGE bool Normalize(PrevectorStep& step) const;
  // The subject's side: the only code whose coverage guides the fuzzer.
  void ApplySubject(const PrevectorStep& step);
  // std::vector and the capacity policy's prediction. Not instrumented: the reference's branches would
  // only add features that say nothing about the subject.
  HARNESS_NO_FUZZ_COVERAGE void ApplyReference(const PrevectorStep& step);

 public:
  // Steps applied so far (rejected ones are not counted).
  size_t applied() const { return log_.size(); }

  // Subject vs reference for both objects plus the comparisons between them.
  HARNESS_NO_FUZZ_COVERAGE void CheckEquivalent() const {
    CheckOne(0);
    CheckOne(1);
    CheckOrder();
  }

  const Pre& subject(int side) const { return *pre_[side]; }
  const std::vector<T>& reference(int side) const { return ref_[side]; }

 private:
  HARNESS_NO_FUZZ_COVERAGE void CheckOrder() const {
    const Pre& a = *pre_[0];
    const Pre& b = *pre_[1];
    const auto& va = ref_[0];
    const auto& vb = ref_[1];
    HARNESS_CHECK_EQ(a == b, va == vb, "operator==");
    HARNESS_CHECK_EQ(a < b, SizeFirstLess(va, vb), "operator< (size first, then elements)");
    HARNESS_CHECK_EQ(b < a, SizeFirstLess(vb, va), "operator< (size first, then elements)");
  }

  // What the capacity policy says about one object: inline, or heap with an exact capacity.
  struct Shape {
    bool direct = true;
    uint32_t capacity = N;
  };
  static Shape Heap(uint32_t capacity) { return Shape{false, capacity}; }
  static Shape ShapeOfCopy(size_t n) { return n <= N ? Shape{} : Heap(static_cast<uint32_t>(n)); }

  static bool SizeFirstLess(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  }
  // Growth by insertion: to new_size + new_size / 2 when the capacity is short.
  static void GrowForInsert(Shape& s, size_t new_size) {
    if (new_size > s.capacity) s = Heap(static_cast<uint32_t>(new_size + new_size / 2));
  }
  // Growth by reserve / resize / assign: to exactly n when the capacity is short.
  static void GrowExact(Shape& s, size_t n) {
    if (n > s.capacity) s = Heap(static_cast<uint32_t>(n));
  }
  // A range of `count` deterministic values derived from `seed`, standing for an outside container. On the
  // stack: a heap allocation per operation costs more than the operation under ASan.
  struct Values {
    Values(uint32_t seed, uint32_t count) : n(count) {
      for (uint32_t i = 0; i < count; ++i) items[i] = static_cast<T>(seed * 2654435761u + i * 40503u);
    }
    const T* begin() const { return items.data(); }
    const T* end() const { return items.data() + n; }
    std::array<T, kMaxLen> items;
    uint32_t n;
  };

  HARNESS_NO_FUZZ_COVERAGE void CheckOne(int side) const {
    const Pre& p = *pre_[side];
    const std::vector<T>& v = ref_[side];
    const Shape& s = shape_[side];
    HARNESS_CHECK_EQ(p.size(), v.size(), "size of side ", side);
    HARNESS_CHECK(std::equal(v.begin(), v.end(), p.begin()), "contents of side ", side);
    if (!v.empty()) {
      HARNESS_CHECK_EQ(uint64_t{p.front()}, uint64_t{v.front()}, "front of side ", side);
      HARNESS_CHECK_EQ(uint64_t{p.back()}, uint64_t{v.back()}, "back of side ", side);
    }
    HARNESS_CHECK_EQ(seam::IsDirect(p), s.direct, "inline state of side ", side);
    HARNESS_CHECK_EQ(p.capacity(), s.capacity, "capacity of side ", side);
    HARNESS_CHECK_EQ(p.allocated_memory(), s.direct ? 0 : sizeof(T) * s.capacity, "allocated_memory of side ", side);
    const auto* object = reinterpret_cast<const unsigned char*>(&p);
    const auto* data = reinterpret_cast<const unsigned char*>(p.data());
    const bool data_inside = data >= object && data < object + sizeof(Pre);
    HARNESS_CHECK_EQ(data_inside, s.direct, "data() inside the object iff inline, side ", side);
    // The encoding is a one-byte CompactSize (kMaxLen < 253) and the elements little-endian, which on the
    // little-endian hosts this runs on is their memory image. (SerializeVectorRef spells the encoding out;
    // the unit tests compare with it past every CompactSize boundary.)
    subject_bytes_.clear();
    seam::SerializePrevector(subject_bytes_, p);
    HARNESS_CHECK(subject_bytes_.size() == 1 + v.size() * sizeof(T) && subject_bytes_[0] == v.size() &&
                      std::memcmp(subject_bytes_.data() + 1, v.data(), v.size() * sizeof(T)) == 0,
                  "serialized bytes of side ", side);
  }

  std::optional<Pre> pre_[2];
  std::vector<T> ref_[2];
  Shape shape_[2];
  // Scratch for the serialization check, reserved once.
  mutable std::vector<uint8_t> subject_bytes_;
  OpLog<PrevectorStep> log_;
};

template <unsigned int N, typename T>
bool PrevectorTester<N, T>::Apply(PrevectorStep step) {
  if (!Normalize(step)) return false;
  const bool aliasing = step.op == PrevectorOp::kInsertSelf || step.op == PrevectorOp::kInsertSelfRange ||
                        step.op == PrevectorOp::kAssignSelfRange;
  if (aliasing && !seam::kPrevectorSelfAliasing) return false;
  log_.Add(step);
  ApplySubject(step);
  ApplyReference(step);
  // Only swaps and moves change the other object; it was checked after its own last change.
  CheckOne(step.side);
  if (step.op == PrevectorOp::kSwap || step.op == PrevectorOp::kMoveAssign || step.op == PrevectorOp::kMoveConstruct) {
    CheckOne(1 - step.side);
  }
  CheckOrder();
  return true;
}

template <unsigned int N, typename T>
bool PrevectorTester<N, T>::Normalize(PrevectorStep& step) const {
  step.side &= 1;
  const size_t len = ref_[step.side].size();
  switch (step.op) {
    case PrevectorOp::kInsert:
    case PrevectorOp::kInsertCount:
    case PrevectorOp::kInsertRange:
      if (step.op == PrevectorOp::kInsert) step.count = 1;
      step.pos %= len + 1;
      return len + step.count <= kMaxLen;
    case PrevectorOp::kEraseOne:
    case PrevectorOp::kEraseRange:
      if (len == 0) return false;
      step.pos %= len;
      step.count = step.op == PrevectorOp::kEraseOne ? 1 : step.count % (len - step.pos + 1);
      return true;
    case PrevectorOp::kResize:
    case PrevectorOp::kResizeUninitialized:
    case PrevectorOp::kReserve:
    case PrevectorOp::kAssignCount:
    case PrevectorOp::kAssignRange:
      step.count %= kMaxLen + 1;
      return true;
    case PrevectorOp::kPushBack:
    case PrevectorOp::kEmplaceBack:
      return len + 1 <= kMaxLen;
    case PrevectorOp::kPopBack:
      return len > 0;
    case PrevectorOp::kInsertSelf:
      step.pos %= len + 1;
      step.index = len == 0 ? 0 : step.index % static_cast<uint32_t>(len);
      return len > 0 && len + step.count <= kMaxLen;
    case PrevectorOp::kInsertSelfRange:
    case PrevectorOp::kAssignSelfRange:
      if (len == 0) return false;
      step.index %= len;  // the first element of the aliased range
      step.count %= len - step.index + 1;
      step.pos %= len + 1;
      return step.op == PrevectorOp::kAssignSelfRange || len + step.count <= kMaxLen;
    case PrevectorOp::kSet:
      if (len == 0) return false;
      step.pos %= len;
      return true;
    case PrevectorOp::kShrinkToFit:
    case PrevectorOp::kClear:
    case PrevectorOp::kSwap:
    case PrevectorOp::kCopyAssign:
    case PrevectorOp::kMoveAssign:
    case PrevectorOp::kCopyConstruct:
    case PrevectorOp::kMoveConstruct:
    case PrevectorOp::kSelfCopyAssign:
      return true;
  }
  return false;
}

template <unsigned int N, typename T>
void PrevectorTester<N, T>::ApplySubject(const PrevectorStep& step) {
  const int other = 1 - step.side;
  Pre& p = *pre_[step.side];
  const T value = static_cast<T>(step.value);
  const auto at = p.begin() + (step.pos <= p.size() ? step.pos : 0);  // pos is normalized only where used
  switch (step.op) {
    case PrevectorOp::kInsert: p.insert(at, value); break;
    case PrevectorOp::kInsertCount: p.insert(at, step.count, value); break;
    case PrevectorOp::kInsertRange: {
      const Values values(step.value, step.count);
      p.insert(at, values.begin(), values.end());
      break;
    }
    case PrevectorOp::kEraseOne: p.erase(at); break;
    case PrevectorOp::kEraseRange: p.erase(at, at + step.count); break;
    case PrevectorOp::kResize: p.resize(step.count); break;
    case PrevectorOp::kResizeUninitialized: {
      const uint32_t old = p.size();
      p.resize_uninitialized(step.count);
      for (uint32_t i = old; i < step.count; ++i) p[i] = value;
      break;
    }
    case PrevectorOp::kReserve: p.reserve(step.count); break;
    case PrevectorOp::kShrinkToFit: p.shrink_to_fit(); break;
    case PrevectorOp::kClear: p.clear(); break;
    case PrevectorOp::kAssignCount: p.assign(step.count, value); break;
    case PrevectorOp::kAssignRange: {
      const Values values(step.value, step.count);
      p.assign(values.begin(), values.end());
      break;
    }
    case PrevectorOp::kPushBack: p.push_back(value); break;
    case PrevectorOp::kEmplaceBack:
      // Bitcoin Core's emplace_back returns void (the README's differences table); the element is still
      // compared by the state check after every operation.
      if constexpr (std::is_void_v<decltype(p.emplace_back(value))>) {
        p.emplace_back(value);
      } else {
        HARNESS_CHECK_EQ(uint64_t{p.emplace_back(value)}, uint64_t{value}, "emplace_back returns the new element");
      }
      break;
    case PrevectorOp::kPopBack: p.pop_back(); break;
    case PrevectorOp::kSwap: p.swap(*pre_[other]); break;
    case PrevectorOp::kCopyAssign: p = *pre_[other]; break;
    case PrevectorOp::kSelfCopyAssign: p = *pre_[step.side]; break;
    case PrevectorOp::kMoveAssign: p = std::move(*pre_[other]); break;
    case PrevectorOp::kCopyConstruct:
      pre_[step.side].reset();
      pre_[step.side].emplace(*pre_[other]);
      break;
    case PrevectorOp::kMoveConstruct:
      pre_[step.side].reset();
      pre_[step.side].emplace(std::move(*pre_[other]));
      break;
    case PrevectorOp::kInsertSelf: p.insert(at, step.count, p[step.index]); break;
    case PrevectorOp::kInsertSelfRange: p.insert(at, p.begin() + step.index, p.begin() + step.index + step.count); break;
    case PrevectorOp::kAssignSelfRange: p.assign(p.begin() + step.index, p.begin() + step.index + step.count); break;
    case PrevectorOp::kSet: p[step.pos] = value; break;
  }
}

template <unsigned int N, typename T>
void PrevectorTester<N, T>::ApplyReference(const PrevectorStep& step) {
  const int other = 1 - step.side;
  std::vector<T>& v = ref_[step.side];
  Shape& s = shape_[step.side];
  const size_t len = v.size();
  const T value = static_cast<T>(step.value);
  const auto at = v.begin() + (step.pos <= len ? step.pos : 0);  // pos is normalized only where used
  switch (step.op) {
    case PrevectorOp::kInsert:
    case PrevectorOp::kInsertCount:
      GrowForInsert(s, len + step.count);
      v.insert(at, step.count, value);
      break;
    case PrevectorOp::kInsertRange: {
      GrowForInsert(s, len + step.count);
      const Values values(step.value, step.count);
      v.insert(at, values.begin(), values.end());
      break;
    }
    case PrevectorOp::kEraseOne:
    case PrevectorOp::kEraseRange: v.erase(at, at + step.count); break;
    case PrevectorOp::kResize:
    case PrevectorOp::kResizeUninitialized:
      GrowExact(s, step.count);
      v.resize(step.count, step.op == PrevectorOp::kResize ? T{} : value);
      break;
    case PrevectorOp::kReserve: GrowExact(s, step.count); break;
    case PrevectorOp::kShrinkToFit: s = ShapeOfCopy(len); break;
    case PrevectorOp::kClear: v.clear(); break;
    case PrevectorOp::kAssignCount:
      GrowExact(s, step.count);
      v.assign(step.count, value);
      break;
    case PrevectorOp::kAssignRange: {
      GrowExact(s, step.count);
      const Values values(step.value, step.count);
      v.assign(values.begin(), values.end());
      break;
    }
    case PrevectorOp::kPushBack:
    case PrevectorOp::kEmplaceBack:
      GrowForInsert(s, len + 1);
      v.push_back(value);
      break;
    case PrevectorOp::kPopBack: v.pop_back(); break;
    case PrevectorOp::kSwap:
      std::swap(v, ref_[other]);
      std::swap(s, shape_[other]);
      break;
    case PrevectorOp::kCopyAssign:
      GrowExact(s, ref_[other].size());  // as assign(first, last): this object's storage is reused
      v = ref_[other];
      break;
    case PrevectorOp::kSelfCopyAssign: break;
    case PrevectorOp::kMoveAssign:
    case PrevectorOp::kMoveConstruct:
      v.assign(ref_[other].begin(), ref_[other].end());  // not a vector move: keep both reservations
      ref_[other].clear();
      s = std::exchange(shape_[other], Shape{});
      break;
    case PrevectorOp::kCopyConstruct:
      v = ref_[other];
      s = ShapeOfCopy(v.size());
      break;
    case PrevectorOp::kInsertSelf: {
      GrowForInsert(s, len + step.count);
      const T copy = v[step.index];
      v.insert(at, step.count, copy);
      break;
    }
    case PrevectorOp::kInsertSelfRange:
    case PrevectorOp::kAssignSelfRange: {
      const std::vector<T> copy(v.begin() + step.index, v.begin() + step.index + step.count);
      if (step.op == PrevectorOp::kInsertSelfRange) {
        GrowForInsert(s, len + step.count);
        v.insert(v.begin() + step.pos, copy.begin(), copy.end());
      } else {
        v = copy;
      }
      break;
    }
    case PrevectorOp::kSet: v[step.pos] = value; break;
  }
}

}  // namespace harness
