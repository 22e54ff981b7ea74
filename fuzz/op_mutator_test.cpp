// ctest fuzz.op_mutator: the structure-aware mutator (op_mutator.h) on every target that has a layout,
// starting from each of its seeds (CORPUS/<target>/, the first argument):
//   - a mutant is deterministic in its seed;
//   - an operation-level mutant keeps the input's header, fits max_len, has no byte its decoder leaves
//     unread, and each of its operations is read exactly as the mutator cut it (the operations line up);
//   - at least 90 % of the operation-level mutants are a different operation list;
//   - a splice is a prefix of the first input's operations followed by a run of the second's;
//   - about kByteLevelPercent of the mutations are left to the byte-level mutator.
// Prints per target the share of mutants that differ and of byte-level mutations; exits 1 on a failure.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz.h"
#include "op_mutator.h"

namespace {

using Bytes = std::vector<uint8_t>;

constexpr int kMutantsPerSeed = 40;

int g_failures = 0;

void Fail(std::string_view target, const std::string& what) {
  if (++g_failures <= 20)
    std::fprintf(stderr, "FAIL %.*s: %s\n", static_cast<int>(target.size()), target.data(), what.c_str());
}

// The header and operations of `input` as the decoder reads them (in read order), and the unread bytes.
struct Read {
  Bytes header;
  std::vector<Bytes> ops;
  size_t unread = 0;
  bool operator==(const Read&) const = default;
};

Read Decode(fuzz::OpLayoutFn layout, const Bytes& input) {
  fuzz::OpLayout l;
  layout(fuzz::Buffer(input), l);
  Read r;
  size_t end = input.size();
  for (size_t i = 0; i < l.marks.size(); ++i) {
    Bytes part(input.begin() + static_cast<std::ptrdiff_t>(l.marks[i]),
               input.begin() + static_cast<std::ptrdiff_t>(end));
    if (i == 0) {
      r.header = std::move(part);
    } else if (!part.empty()) {
      r.ops.push_back(std::move(part));
    }
    end = l.marks[i];
  }
  r.unread = end;
  return r;
}

// Set by the byte-level recorder: whether the mutator left the mutation to the byte level.
bool g_byte_level = false;
size_t RecordByteLevel(uint8_t*, size_t size, size_t) {
  g_byte_level = true;
  return size;
}

Bytes ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void CheckTarget(std::string_view name, const fuzz::TargetInfo& info, const std::vector<Bytes>& seeds) {
  const fuzz::OpLayoutFn layout = info.layout;
  const size_t max_size = info.max_len ? info.max_len : 4096;
  size_t op_level = 0, differ = 0, byte_level = 0, total = 0;
  uint64_t seed = 1;
  for (const Bytes& input : seeds) {
    const Read before = Decode(layout, input);
    for (int m = 0; m < kMutantsPerSeed; ++m, ++seed) {
      Bytes a(input), b(input);
      a.resize(max_size);
      b.resize(max_size);
      g_byte_level = false;
      a.resize(fuzz::MutateOps(layout, RecordByteLevel, a.data(), input.size(), max_size, seed));
      b.resize(fuzz::MutateOps(layout, RecordByteLevel, b.data(), input.size(), max_size, seed));
      ++total;
      if (a != b) Fail(name, "seed " + std::to_string(seed) + " gave two different mutants");
      if (g_byte_level) {
        ++byte_level;
        continue;
      }
      ++op_level;
      const Read after = Decode(layout, a);
      if (a.size() > max_size) Fail(name, "a mutant of " + std::to_string(a.size()) + " bytes is over max_len");
      if (after.header != before.header) Fail(name, "a mutant changed the header (seed " + std::to_string(seed) + ")");
      if (after.unread != 0) Fail(name, "a mutant has " + std::to_string(after.unread) + " unread bytes");
      // Each operation read alone after the header, with more bytes before it, is read exactly: the cuts are
      // the decoder's, and no operation ends early (it would read its successor's bytes).
      for (const Bytes& op : after.ops) {
        Bytes alone(64, 0x5a);
        alone.insert(alone.end(), op.begin(), op.end());
        alone.insert(alone.end(), after.header.begin(), after.header.end());
        const Read r = Decode(layout, alone);
        if (r.ops.empty() || r.ops[0] != op) {
          Fail(name, "an operation of a mutant is not read as one (seed " + std::to_string(seed) + ")");
          break;
        }
      }
      if (after.ops != before.ops) ++differ;
    }
    // A splice of the seed with the first seed.
    const Read other = Decode(layout, seeds.front());
    Bytes out(max_size);
    out.resize(
        fuzz::CrossOverOps(layout, fuzz::Buffer(input), fuzz::Buffer(seeds.front()), out.data(), max_size, seed));
    if (!out.empty()) {
      const Read spliced = Decode(layout, out);
      size_t i = 0;
      while (i < spliced.ops.size() && i < before.ops.size() && spliced.ops[i] == before.ops[i]) ++i;
      // Some k <= i where the first input's operations end and a run of the second's follows (the
      // splice may drop the last ones to fit).
      bool joined = false;
      for (size_t k = 0; k <= i && !joined; ++k) {
        joined = std::search(other.ops.begin(), other.ops.end(), spliced.ops.begin() + static_cast<std::ptrdiff_t>(k),
                             spliced.ops.end()) != other.ops.end();
      }
      if (spliced.header != before.header || !joined)
        Fail(name, "a splice is not a prefix of one input and a suffix of the other");
    }
  }
  const double differ_share = op_level ? 100.0 * differ / op_level : 0,
               byte_share = total ? 100.0 * byte_level / total : 0;
  std::printf("%-20.*s %5zu mutants: %5.1f%% operation-level, of which %5.1f%% differ; %5.1f%% byte-level\n",
              static_cast<int>(name.size()), name.data(), total, 100.0 - byte_share, differ_share, byte_share);
  if (op_level == 0 || differ_share < 90) Fail(name, "fewer than 90% of the operation-level mutants differ");
  if (byte_share < fuzz::kByteLevelPercent / 2.0 || byte_share > fuzz::kByteLevelPercent * 2.0) {
    Fail(name, "the byte-level share is far from kByteLevelPercent");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: op_mutator_test CORPUS_DIR\n");
    return 2;
  }
  int checked = 0;
  for (const auto& [name, fn] : fuzz::Targets()) {
    const fuzz::TargetInfo info = fuzz::InfoOf(name);
    if (info.layout == nullptr) continue;
    std::vector<std::filesystem::path> paths;
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(argv[1]) / std::string(name))) {
      paths.push_back(entry.path());
    }
    std::sort(paths.begin(), paths.end());
    std::vector<Bytes> seeds;
    for (size_t i = 0; i < paths.size() && seeds.size() < 50; i += 1 + paths.size() / 50)
      seeds.push_back(ReadFile(paths[i]));
    if (seeds.empty()) {
      Fail(name, "no seeds");
      continue;
    }
    CheckTarget(name, info, seeds);
    ++checked;
  }
  if (checked == 0) Fail("all", "no target has a layout");
  if (g_failures) std::fprintf(stderr, "%d failure(s)\n", g_failures);
  return g_failures ? 1 : 0;
}
