// XOR obfuscation: known answers worked out by hand, and the chunking/alignment/offset property against
// the bytewise reference (exhaustive where small, then random with a printed, settable seed).
#include <boost/test/unit_test.hpp>

#include <array>
#include <cstdint>
#include <vector>

#include "seam/obfuscation.h"
#include "obfuscation_ref.h"
#include "obfuscation_tester.h"
#include "rng.h"
#include "test_util.h"

namespace {

using unit::kBitKey;

// Obfuscates `input` with the subject placed `alignment` bytes past an 8-byte boundary.
std::vector<uint8_t> Apply(const seam::Obfuscation& o, std::vector<uint8_t> input, uint64_t offset, size_t alignment) {
  alignas(8) uint8_t buf[64 + 8];
  std::copy(input.begin(), input.end(), buf + alignment);
  o(std::span<uint8_t>(buf + alignment, input.size()), offset);
  return {buf + alignment, buf + alignment + input.size()};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(obfuscation_tests)

BOOST_AUTO_TEST_CASE(known_answers) {
  const seam::Obfuscation o(kBitKey);
  const std::vector<uint8_t> ones(11, 0xff);
  // 0xff XOR key[k] for k = offset mod 8, offset + 1, ... (computed by hand from kBitKey).
  const std::vector<uint8_t> at0{0xfe, 0xfd, 0xfb, 0xf7, 0xef, 0xdf, 0xbf, 0x7f, 0xfe, 0xfd, 0xfb};
  const std::vector<uint8_t> at3{0xf7, 0xef, 0xdf, 0xbf, 0x7f, 0xfe, 0xfd, 0xfb, 0xf7, 0xef, 0xdf};
  // 2^32 + 5 = 5 (mod 8): the first byte meets key[5] = 0x20.
  const std::vector<uint8_t> at_2_32_plus_5{0xdf, 0xbf, 0x7f, 0xfe, 0xfd, 0xfb, 0xf7, 0xef, 0xdf, 0xbf, 0x7f};
  for (size_t alignment = 0; alignment < 8; ++alignment) {
    BOOST_TEST_CONTEXT("alignment " << alignment) {
      BOOST_TEST(Apply(o, ones, 0, alignment) == at0, boost::test_tools::per_element());
      BOOST_TEST(Apply(o, ones, 3, alignment) == at3, boost::test_tools::per_element());
      BOOST_TEST(Apply(o, ones, 11, alignment) == at3, boost::test_tools::per_element());
      BOOST_TEST(Apply(o, ones, (uint64_t{1} << 32) + 5, alignment) == at_2_32_plus_5,
                 boost::test_tools::per_element());
    }
  }
  // All-zero plaintext reads the key back out; one byte at offset 7 meets key[7].
  BOOST_TEST(Apply(o, std::vector<uint8_t>(8, 0), 0, 0) == std::vector<uint8_t>(kBitKey.begin(), kBitKey.end()),
             boost::test_tools::per_element());
  BOOST_TEST(Apply(o, {0x00}, 7, 5) == std::vector<uint8_t>{0x80}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(key_round_trip_and_rendering) {
  const seam::Obfuscation o(kBitKey);
  BOOST_TEST(static_cast<bool>(o));
  BOOST_TEST(o.ToString() == "0102040810204080");
  BOOST_TEST((o.key() == kBitKey));
}

BOOST_AUTO_TEST_CASE(zero_key_is_off_and_writes_plaintext) {
  const seam::Obfuscation off;
  BOOST_TEST(!static_cast<bool>(off));
  BOOST_TEST(off.ToString() == "0000000000000000");
  const std::vector<uint8_t> data{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  BOOST_TEST(Apply(off, data, 12345, 3) == data, boost::test_tools::per_element());
  // A key with a single non-zero byte is on.
  BOOST_TEST(static_cast<bool>(seam::Obfuscation(seam::Obfuscation::KeyBytes{0, 0, 0, 0, 0, 0, 0, 1})));
}

// Every length up to 40, alignment, offset residue (near 0 and across 2^32) and single split point: the
// chunked and whole subject results equal the reference.
BOOST_AUTO_TEST_CASE(chunking_exhaustive) {
  harness::ObfuscationCase c;
  c.key = {0x9c, 0x01, 0x7e, 0xa5, 0x00, 0xff, 0x31, 0x48};
  for (const uint64_t base : {uint64_t{0}, (uint64_t{1} << 32) - 8}) {
    for (uint64_t residue = 0; residue < 16; ++residue) {
      for (uint32_t length = 0; length <= 40; ++length) {
        for (uint8_t alignment = 0; alignment < 8; ++alignment) {
          for (uint32_t split = 0; split <= length; ++split) {
            c.offset = base + residue;
            c.length = length;
            c.alignment = alignment;
            c.data_seed = length * 131 + split;
            c.chunks = {split};
            harness::CheckObfuscationCase(c);
          }
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(random_cases) {
  const uint64_t seed = harness::TestSeed(20261122);
  BOOST_TEST_MESSAGE("obfuscation random_cases: SEED=" << seed);
  BOOST_TEST_CONTEXT("SEED=" << seed) {
    harness::Rng rng(seed);
    for (int i = 0; i < 3000; ++i) {
      harness::ObfuscationCase c;
      for (auto& b : c.key) b = rng.Chance(20) ? 0 : static_cast<uint8_t>(rng.Next());
      c.offset = rng.Chance(50) ? rng.Next() : rng.Below(1 << 20);
      c.length = static_cast<uint32_t>(rng.Below(harness::ObfuscationCase::kMaxLength + 1));
      c.alignment = static_cast<uint8_t>(rng.Below(8));
      c.data_seed = rng.Next();
      for (uint64_t k = rng.Below(12); k > 0; --k) c.chunks.push_back(static_cast<uint32_t>(rng.Below(100)));
      harness::CheckObfuscationCase(c);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
