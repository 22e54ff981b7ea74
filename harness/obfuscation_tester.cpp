#include "obfuscation_tester.h"

#include <algorithm>
#include <cstring>
#include <span>

#include "check.h"
#include "seam/types.h"
#include "seam/obfuscation.h"
#include "obfuscation_ref.h"
#include "rng.h"

namespace harness {
namespace {

bool Same(std::span<const uint8_t> a, std::span<const uint8_t> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

// An 8-byte-aligned scratch area large enough for any case at any alignment.
struct alignas(8) Buffer {
  uint8_t bytes[ObfuscationCase::kMaxLength + 8];
};

}  // namespace

std::string ObfuscationCase::ToString() const {
  std::string out = "Obfuscate(key=" + HexStr(key) + ", offset=" + std::to_string(offset) +
                    ", length=" + std::to_string(length) + ", alignment=" + std::to_string(alignment) +
                    ", data_seed=" + std::to_string(data_seed) + ", chunks=[";
  for (size_t i = 0; i < chunks.size(); ++i) out += (i ? "," : "") + std::to_string(chunks[i]);
  return out + "])";
}

void CheckObfuscationCase(const ObfuscationCase& c) {
  OpLog<ObfuscationCase> log;
  log.Add(c);
  HARNESS_CHECK(c.length <= ObfuscationCase::kMaxLength && c.alignment < 8, "malformed case");

  Buffer plain_buf, ref_buf, whole_buf, chunked_buf;
  const std::span<uint8_t> plain(plain_buf.bytes + c.alignment, c.length);
  Rng rng(c.data_seed);
  for (size_t i = 0; i < c.length; i += 8) {
    const uint64_t word = rng.Next();
    std::memcpy(plain.data() + i, &word, std::min<size_t>(8, c.length - i));
  }
  auto copy_of_plain = [&](Buffer& buf) {
    const std::span<uint8_t> out(buf.bytes + c.alignment, c.length);
    std::copy(plain.begin(), plain.end(), out.begin());
    return out;
  };

  const seam::Obfuscation obfuscation(c.key);
  const bool key_is_zero = std::all_of(c.key.begin(), c.key.end(), [](uint8_t b) { return b == 0; });
  HARNESS_CHECK_EQ(static_cast<bool>(obfuscation), !key_is_zero, "on exactly when the key is non-zero");
  HARNESS_CHECK(obfuscation.key() == c.key, "key round trip");

  const auto ref = copy_of_plain(ref_buf);
  XorRef(ref, c.key, c.offset);

  const auto whole = copy_of_plain(whole_buf);
  obfuscation(whole, c.offset);
  HARNESS_CHECK(Same(whole, ref), "whole buffer\n    subject:   ", HexStr(whole), "\n    reference: ", HexStr(ref));

  const auto chunked = copy_of_plain(chunked_buf);
  size_t done = 0;
  for (size_t i = 0; i <= c.chunks.size() && done < c.length; ++i) {
    const size_t n = i < c.chunks.size() ? std::min<size_t>(c.chunks[i], c.length - done) : c.length - done;
    obfuscation(chunked.subspan(done, n), c.offset + done);
    done += n;
  }
  HARNESS_CHECK(Same(chunked, ref), "chunked\n    subject:   ", HexStr(chunked), "\n    reference: ", HexStr(ref));

  obfuscation(whole, c.offset);
  HARNESS_CHECK(Same(whole, plain), "applying twice restores the plaintext\n    got:       ", HexStr(whole),
                "\n    plaintext: ", HexStr(plain));
}

}  // namespace harness
