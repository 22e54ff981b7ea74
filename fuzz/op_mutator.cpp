#include "op_mutator.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "check.h"
#include "rng.h"

// Mechanics of the engine, like the decoders: uninstrumented, so that no feature comes from them.
HARNESS_NO_FUZZ_COVERAGE_BEGIN

namespace fuzz {
namespace {

using Bytes = std::vector<uint8_t>;

// The longest operation any target's decoder reads (a block of coins_overlay_sim: 26 bytes), with room.
constexpr size_t kMaxOpBytes = 64;

// An input cut where the decoder reads: the header and each operation, in read order. Bytes nothing reads
// are dropped.
struct Ops {
  Bytes header;
  std::vector<Bytes> ops;

  // Back to bytes: the decoder reads from the end, so the header goes last and operation 0 just before it.
  size_t Size() const {
    size_t n = header.size();
    for (const Bytes& op : ops) n += op.size();
    return n;
  }
  // Writes the input, without the operations past those its decoder reads (a list over the target's
  // step limit); returns its size.
  size_t Write(OpLayoutFn layout, uint8_t* out) const {
    const size_t size = WriteAll(out);
    OpLayout l;
    layout(Buffer(out, size), l);
    const size_t unread = l.marks.empty() ? 0 : std::min(l.marks.back(), size);
    std::memmove(out, out + unread, size - unread);
    return size - unread;
  }
  size_t WriteAll(uint8_t* out) const {
    uint8_t* at = out;
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) at = std::copy(it->begin(), it->end(), at);
    return static_cast<size_t>(std::copy(header.begin(), header.end(), at) - out);
  }
};

Ops Cut(OpLayoutFn layout, Buffer input) {
  OpLayout l;
  layout(input, l);
  Ops ops;
  size_t end = input.size();
  for (size_t i = 0; i < l.marks.size(); ++i) {
    const size_t mark = std::min(l.marks[i], end);
    Bytes part(input.begin() + mark, input.begin() + end);
    if (i == 0) {
      ops.header = std::move(part);
    } else if (!part.empty()) {
      ops.ops.push_back(std::move(part));
    }
    end = mark;
  }
  return ops;
}

// The bytes the decoder reads as one operation when `candidate` stands right before `header` (its last
// bytes are read first): the operation `candidate` ends with, cut to its true length.
Bytes Reread(OpLayoutFn layout, const Bytes& header, const Bytes& candidate) {
  Bytes input(candidate);
  input.insert(input.end(), header.begin(), header.end());
  OpLayout l;
  layout(Buffer(input), l);
  if (l.marks.size() < 2) return {};
  const size_t from = l.marks[1], to = std::min(l.marks[0], candidate.size());
  return from < to ? Bytes(input.begin() + from, input.begin() + to) : Bytes{};
}

Bytes RandomBytes(harness::Rng& rng, size_t n) {
  Bytes b(n);
  for (uint8_t& x : b) x = static_cast<uint8_t>(rng.Next());
  return b;
}

// `arguments` (read after the code) padded in front with random bytes, then `code`, read again.
Bytes Rebuild(OpLayoutFn layout, const Bytes& header, harness::Rng& rng, const Bytes& arguments, uint8_t code) {
  Bytes candidate = RandomBytes(rng, kMaxOpBytes);
  candidate.insert(candidate.end(), arguments.begin(), arguments.end());
  candidate.push_back(code);
  return Reread(layout, header, candidate);
}

// `input` cut into its header and operations; false when the input ends inside its header, whose bytes would
// then change as operations are added (such an input is left to the byte level). An operation the input ends
// inside is dropped: moved elsewhere, it would read the bytes of the next one.
bool Split(OpLayoutFn layout, Buffer input, harness::Rng& rng, Ops& ops) {
  ops = Cut(layout, input);
  Bytes padded = RandomBytes(rng, kMaxOpBytes);
  padded.insert(padded.end(), ops.header.begin(), ops.header.end());
  if (Cut(layout, Buffer(padded)).header != ops.header) return false;
  if (!ops.ops.empty()) {
    Bytes last = RandomBytes(rng, kMaxOpBytes);
    last.insert(last.end(), ops.ops.back().begin(), ops.ops.back().end());
    if (Reread(layout, ops.header, last) != ops.ops.back()) ops.ops.pop_back();
  }
  return true;
}

enum Edit { kErase, kDuplicate, kSwap, kInsert, kArgument, kCode, kEditCount };

// One operation-level edit; false when it does not apply to this list.
bool EditOps(OpLayoutFn layout, Ops& ops, harness::Rng& rng) {
  const size_t n = ops.ops.size();
  switch (static_cast<Edit>(rng.Below(kEditCount))) {
    case kErase:
      if (n == 0) return false;
      ops.ops.erase(ops.ops.begin() + static_cast<std::ptrdiff_t>(rng.Below(n)));
      return true;
    case kDuplicate: {
      if (n == 0) return false;
      Bytes copy = ops.ops[rng.Below(n)];
      ops.ops.insert(ops.ops.begin() + static_cast<std::ptrdiff_t>(rng.Below(n + 1)), std::move(copy));
      return true;
    }
    case kSwap: {
      if (n < 2) return false;
      const size_t i = rng.Below(n), j = rng.Below(n);
      if (ops.ops[i] == ops.ops[j]) return false;
      std::swap(ops.ops[i], ops.ops[j]);
      return true;
    }
    case kInsert: {
      Bytes op = Reread(layout, ops.header, RandomBytes(rng, kMaxOpBytes));
      if (op.empty()) return false;
      ops.ops.insert(ops.ops.begin() + static_cast<std::ptrdiff_t>(rng.Below(n + 1)), std::move(op));
      return true;
    }
    case kArgument: {
      if (n == 0) return false;
      Bytes& op = ops.ops[rng.Below(n)];
      if (op.size() < 2) return false;
      Bytes arguments(op.begin(), op.end() - 1);
      uint8_t& b = arguments[rng.Below(arguments.size())];
      // A neighbour of the old value (counts, sizes and indexes near a boundary), any value, or the value of
      // an argument byte elsewhere in the list: operations meet through equal table indexes (a coin added,
      // then spent; one prevout in two transactions), which random values rarely make.
      switch (rng.Below(3)) {
        case 0: b = static_cast<uint8_t>(b + (rng.Chance(50) ? 1 : -1)); break;
        case 1: b = static_cast<uint8_t>(rng.Next()); break;
        default: {
          const Bytes& from = ops.ops[rng.Below(n)];
          if (from.size() > 1) b = from[rng.Below(from.size() - 1)];
        }
      }
      Bytes edited = Rebuild(layout, ops.header, rng, arguments, op.back());
      if (edited.empty() || edited == op) return false;
      op = std::move(edited);
      return true;
    }
    case kCode: {
      if (n == 0) return false;
      Bytes& op = ops.ops[rng.Below(n)];
      Bytes edited =
          Rebuild(layout, ops.header, rng, Bytes(op.begin(), op.end() - 1), static_cast<uint8_t>(rng.Next()));
      if (edited.empty() || edited == op) return false;
      op = std::move(edited);
      return true;
    }
    case kEditCount: break;
  }
  return false;
}

// Drops the last operations until the input fits; false if even the header does not.
bool Fit(Ops& ops, size_t max_size) {
  while (ops.Size() > max_size && !ops.ops.empty()) ops.ops.pop_back();
  return ops.Size() <= max_size;
}

}  // namespace

size_t MutateOps(OpLayoutFn layout, ByteMutator byte_mutator, uint8_t* data, size_t size, size_t max_size,
                 uint64_t seed) {
  harness::Rng rng(seed);
  if (layout == nullptr || rng.Chance(kByteLevelPercent)) {
    return byte_mutator(data, size, max_size);
  }
  Ops ops;
  if (!Split(layout, Buffer(data, size), rng, ops)) return byte_mutator(data, size, max_size);
  // A few edits at once now and then: some states need two changes that are each uninteresting alone.
  const int edits = rng.Chance(75) ? 1 : 2 + static_cast<int>(rng.Below(3));
  bool edited = false;
  for (int tries = 0, done = 0; done < edits && tries < 4 * edits; ++tries) {
    if (EditOps(layout, ops, rng)) {
      edited = true;
      ++done;
    }
  }
  if (!edited || !Fit(ops, max_size)) return byte_mutator(data, size, max_size);
  return ops.Write(layout, data);
}

size_t CrossOverOps(OpLayoutFn layout, Buffer a, Buffer b, uint8_t* out, size_t max_out, uint64_t seed) {
  if (layout == nullptr) return 0;
  harness::Rng rng(seed);
  Ops first, second;
  if (!Split(layout, a, rng, first) || !Split(layout, b, rng, second) || second.ops.empty()) return 0;
  // Operations [0, i) of `a`, then [j, end) of `b`.
  const size_t i = rng.Below(first.ops.size() + 1), j = rng.Below(second.ops.size());
  first.ops.resize(i);
  first.ops.insert(first.ops.end(), second.ops.begin() + static_cast<std::ptrdiff_t>(j), second.ops.end());
  if (!Fit(first, max_out)) return 0;
  return first.Write(layout, out);
}

}  // namespace fuzz

HARNESS_NO_FUZZ_COVERAGE_END
