// PrevectorTester: applies one operation at a time to two prevector<N, T> objects and to two std::vector<T>
// references, then checks they agree.
//
// Modelled: contents, the capacity policy of SPEC §5 (exact capacity after every operation), inline/heap
// state (also from where data() points), allocated_memory(), ==, the size-first operator<, serialized bytes,
// self-aliasing inserts and assigns, copies, moves and swaps between the two objects.
// Not modelled: allocation failure and the length_error past kMaxSize (sizes here stay below kMaxLen).
//
// Operations (stable IDs; add new ones at the end): see PrevectorOp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "check.h"
#include "prevector.h"
#include "serialize.h"
#include "serialize_ref.h"

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
  using Pre = prevector<N, T>;
  // Operations that would grow past this are skipped: past 2N + 3 (the sweep bound), small enough to keep
  // each check cheap.
  static constexpr uint32_t kMaxLen = 3 * N + 8;

  PrevectorTester() {
    for (auto& p : pre_) p.emplace();
  }

  // Reduces the step's arguments to valid ones, applies it to both sides, records it, and checks. Returns
  // false (and changes nothing) when the step does not apply, e.g. pop_back on an empty vector.
  bool Apply(PrevectorStep step);
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
  // A range of `count` deterministic values derived from `seed`, standing for an outside container.
  static std::vector<T> Values(uint32_t seed, uint32_t count) {
    std::vector<T> out(count);
    for (uint32_t i = 0; i < count; ++i) out[i] = static_cast<T>(seed * 2654435761u + i * 40503u);
    return out;
  }

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
    HARNESS_CHECK_EQ(p.is_direct(), s.direct, "inline state of side ", side);
    HARNESS_CHECK_EQ(p.capacity(), s.capacity, "capacity of side ", side);
    HARNESS_CHECK_EQ(p.allocated_memory(), s.direct ? 0 : sizeof(T) * s.capacity, "allocated_memory of side ", side);
    const auto* object = reinterpret_cast<const unsigned char*>(&p);
    const auto* data = reinterpret_cast<const unsigned char*>(p.data());
    const bool data_inside = data >= object && data < object + sizeof(Pre);
    HARNESS_CHECK_EQ(data_inside, s.direct, "data() inside the object iff inline, side ", side);
    subject_bytes_.clear();
    reference_bytes_.clear();
    SerializePrevector(subject_bytes_, p);
    SerializeVectorRef(reference_bytes_, v);
    HARNESS_CHECK(subject_bytes_ == reference_bytes_, "serialized bytes of side ", side);
  }

  std::optional<Pre> pre_[2];
  std::vector<T> ref_[2];
  Shape shape_[2];
  // Scratch for the serialization check, kept to avoid two allocations per operation.
  mutable std::vector<uint8_t> subject_bytes_, reference_bytes_;
  OpLog<PrevectorStep> log_;
};

template <unsigned int N, typename T>
bool PrevectorTester<N, T>::Apply(PrevectorStep step) {
  const int side = step.side & 1;
  const int other = 1 - side;
  step.side = static_cast<uint8_t>(side);
  Pre& p = *pre_[side];
  std::vector<T>& v = ref_[side];
  Shape& s = shape_[side];
  const size_t len = v.size();
  const T value = static_cast<T>(step.value);

  switch (step.op) {
    case PrevectorOp::kInsert:
    case PrevectorOp::kInsertCount:
    case PrevectorOp::kInsertRange: {
      const uint32_t count = step.op == PrevectorOp::kInsert ? 1 : step.count;
      if (len + count > kMaxLen) return false;
      step.pos %= len + 1;
      step.count = count;
      log_.Add(step);
      GrowForInsert(s, len + count);
      if (step.op == PrevectorOp::kInsertRange) {
        const std::vector<T> values = Values(step.value, count);
        p.insert(p.begin() + step.pos, values.begin(), values.end());
        v.insert(v.begin() + step.pos, values.begin(), values.end());
      } else if (step.op == PrevectorOp::kInsert) {
        p.insert(p.begin() + step.pos, value);
        v.insert(v.begin() + step.pos, value);
      } else {
        p.insert(p.begin() + step.pos, count, value);
        v.insert(v.begin() + step.pos, count, value);
      }
      break;
    }
    case PrevectorOp::kEraseOne:
    case PrevectorOp::kEraseRange: {
      if (len == 0) return false;
      step.pos %= len;
      step.count = step.op == PrevectorOp::kEraseOne ? 1 : step.count % (len - step.pos + 1);
      log_.Add(step);
      if (step.op == PrevectorOp::kEraseOne) {
        p.erase(p.begin() + step.pos);
      } else {
        p.erase(p.begin() + step.pos, p.begin() + step.pos + step.count);
      }
      v.erase(v.begin() + step.pos, v.begin() + step.pos + step.count);
      break;
    }
    case PrevectorOp::kResize:
    case PrevectorOp::kResizeUninitialized: {
      step.count %= kMaxLen + 1;
      log_.Add(step);
      GrowExact(s, step.count);
      if (step.op == PrevectorOp::kResize) {
        p.resize(step.count);
        v.resize(step.count);
      } else {
        p.resize_uninitialized(step.count);
        v.resize(step.count, value);
        for (size_t i = len; i < step.count; ++i) p[static_cast<uint32_t>(i)] = value;
      }
      break;
    }
    case PrevectorOp::kReserve:
      step.count %= kMaxLen + 1;
      log_.Add(step);
      GrowExact(s, step.count);
      p.reserve(step.count);
      break;
    case PrevectorOp::kShrinkToFit:
      log_.Add(step);
      s = ShapeOfCopy(len);
      p.shrink_to_fit();
      break;
    case PrevectorOp::kClear:
      log_.Add(step);
      p.clear();
      v.clear();
      break;
    case PrevectorOp::kAssignCount:
    case PrevectorOp::kAssignRange: {
      step.count %= kMaxLen + 1;
      log_.Add(step);
      GrowExact(s, step.count);
      if (step.op == PrevectorOp::kAssignCount) {
        p.assign(step.count, value);
        v.assign(step.count, value);
      } else {
        const std::vector<T> values = Values(step.value, step.count);
        p.assign(values.begin(), values.end());
        v = values;
      }
      break;
    }
    case PrevectorOp::kPushBack:
    case PrevectorOp::kEmplaceBack:
      if (len + 1 > kMaxLen) return false;
      log_.Add(step);
      GrowForInsert(s, len + 1);
      if (step.op == PrevectorOp::kPushBack) {
        p.push_back(value);
      } else {
        HARNESS_CHECK_EQ(uint64_t{p.emplace_back(value)}, uint64_t{value}, "emplace_back returns the new element");
      }
      v.push_back(value);
      break;
    case PrevectorOp::kPopBack:
      if (len == 0) return false;
      log_.Add(step);
      p.pop_back();
      v.pop_back();
      break;
    case PrevectorOp::kSwap:
      log_.Add(step);
      p.swap(*pre_[other]);
      std::swap(v, ref_[other]);
      std::swap(s, shape_[other]);
      break;
    case PrevectorOp::kCopyAssign:
    case PrevectorOp::kSelfCopyAssign: {
      const int from = step.op == PrevectorOp::kCopyAssign ? other : side;
      log_.Add(step);
      GrowExact(s, ref_[from].size());  // as assign(first, last): this object's storage is reused
      p = *pre_[from];
      v = ref_[from];
      break;
    }
    case PrevectorOp::kMoveAssign:
    case PrevectorOp::kMoveConstruct:
      log_.Add(step);
      if (step.op == PrevectorOp::kMoveAssign) {
        p = std::move(*pre_[other]);
      } else {
        pre_[side].reset();
        pre_[side].emplace(std::move(*pre_[other]));
      }
      v = std::exchange(ref_[other], {});
      s = std::exchange(shape_[other], Shape{});
      break;
    case PrevectorOp::kCopyConstruct:
      log_.Add(step);
      pre_[side].reset();
      pre_[side].emplace(*pre_[other]);
      v = ref_[other];
      s = ShapeOfCopy(v.size());
      break;
    case PrevectorOp::kInsertSelf: {
      if (len == 0 || len + step.count > kMaxLen) return false;
      step.pos %= len + 1;
      step.index %= len;
      log_.Add(step);
      GrowForInsert(s, len + step.count);
      const T copy = v[step.index];
      p.insert(p.begin() + step.pos, step.count, p[step.index]);
      v.insert(v.begin() + step.pos, step.count, copy);
      break;
    }
    case PrevectorOp::kInsertSelfRange:
    case PrevectorOp::kAssignSelfRange: {
      if (len == 0) return false;
      step.index %= len;  // the first element of the aliased range
      step.count %= len - step.index + 1;
      const bool insert = step.op == PrevectorOp::kInsertSelfRange;
      if (insert && len + step.count > kMaxLen) return false;
      step.pos %= len + 1;
      log_.Add(step);
      const std::vector<T> copy(v.begin() + step.index, v.begin() + step.index + step.count);
      auto first = p.begin() + step.index;
      if (insert) {
        GrowForInsert(s, len + step.count);
        p.insert(p.begin() + step.pos, first, first + step.count);
        v.insert(v.begin() + step.pos, copy.begin(), copy.end());
      } else {
        p.assign(first, first + step.count);
        v = copy;
      }
      break;
    }
    case PrevectorOp::kSet:
      if (len == 0) return false;
      step.pos %= len;
      log_.Add(step);
      p[step.pos] = value;
      v[step.pos] = value;
      break;
    default:
      return false;
  }
  // Only swaps, moves and copies change the other object; it was checked after its own last change.
  const bool both = step.op == PrevectorOp::kSwap || step.op == PrevectorOp::kMoveAssign ||
                    step.op == PrevectorOp::kMoveConstruct;
  CheckOne(side);
  if (both) CheckOne(other);
  CheckOrder();
  return true;
}

}  // namespace harness
