// BufferedFile, the -loadblock reader (docs/semantics.md §3, "Reading with rewind"): reads across its ring
// buffer, the rewind it guarantees and the bounds of SetPos, the limit, FindByte, the end of the file, and
// an obfuscated file read from an offset. buffered_file_sim fuzzes the same contract.
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <algorithm>
#include <vector>

#include "obfuscation_ref.h"
#include "seam/file_io.h"
#include "test_util.h"

namespace {

using unit::kBitKey;

// A file holding `plain` obfuscated with `key` from offset 0, opened for reading at `start`.
struct ReaderFile {
  unit::TempDir dir;
  std::vector<uint8_t> plain;
  seam::AutoFile file;

  ReaderFile(std::vector<uint8_t> content, const seam::Obfuscation::KeyBytes& key, uint64_t start = 0)
      : plain(std::move(content)), file(Open(dir, plain, key, start)) {}

  static seam::AutoFile Open(const unit::TempDir& dir, const std::vector<uint8_t>& plain,
                             const seam::Obfuscation::KeyBytes& key, uint64_t start) {
    std::vector<uint8_t> raw = plain;
    harness::XorRef(raw, key, 0);
    const std::string path = dir.File("blk00000.dat");
    {
      std::FILE* f = std::fopen(path.c_str(), "wb");
      BOOST_REQUIRE(f != nullptr && std::fwrite(raw.data(), 1, raw.size(), f) == raw.size() && std::fclose(f) == 0);
    }
    seam::AutoFile in = unit::Open(path, "rb", seam::Obfuscation(key));
    in.Seek(static_cast<int64_t>(start), SEEK_SET);
    return in;
  }
};

std::vector<uint8_t> Content(size_t n, uint64_t seed) {
  harness::Rng rng(seed);
  return unit::Bytes(rng, n);
}

std::vector<uint8_t> Read(seam::BufferedFile& r, size_t n) {
  std::vector<uint8_t> out(n);
  r.Read(out);
  return out;
}

std::vector<uint8_t> Slice(const std::vector<uint8_t>& v, size_t at, size_t n) {
  return std::vector<uint8_t>(v.begin() + static_cast<ptrdiff_t>(at), v.begin() + static_cast<ptrdiff_t>(at + n));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(buffered_file_tests)

BOOST_AUTO_TEST_CASE(reads_across_the_ring) {
  ReaderFile f(Content(1000, 1), kBitKey);
  seam::BufferedFile r(f.file, 64, 16);
  for (size_t at = 0; at + 7 <= 1000; at += 7) {
    BOOST_TEST(Read(r, 7) == Slice(f.plain, at, 7), boost::test_tools::per_element());
    BOOST_TEST(r.GetPos() == at + 7);
  }
}

// Up to `rewind` bytes before the furthest position read are always there to go back to; more than a
// buffer back never is.
BOOST_AUTO_TEST_CASE(rewind_guarantee_and_set_pos_bounds) {
  ReaderFile f(Content(1000, 2), kBitKey);
  for (const uint64_t rewind : {uint64_t{0}, uint64_t{1}, uint64_t{16}, uint64_t{63}}) {
    BOOST_TEST_CONTEXT("rewind " << rewind) {
      f.file.Seek(0, SEEK_SET);
      seam::BufferedFile r(f.file, 64, rewind);
      for (uint64_t furthest = 10; furthest < 1000; furthest += 37) {
        r.SkipTo(furthest);
        for (uint64_t back = 0; back <= std::min(rewind, furthest); ++back) {
          BOOST_TEST_REQUIRE(r.SetPos(furthest - back));
          BOOST_TEST(Read(r, static_cast<size_t>(back)) == Slice(f.plain, furthest - back, back),
                     boost::test_tools::per_element());
        }
        BOOST_TEST(r.GetPos() == furthest);
        if (furthest > 65) {
          BOOST_TEST(!r.SetPos(furthest - 65));
          BOOST_TEST(r.GetPos() + 64 >= furthest);
          BOOST_TEST(r.SetPos(furthest));
        }
      }
      BOOST_TEST(!r.SetPos(1001));
      BOOST_TEST(r.GetPos() <= 1000u);
    }
  }
}

BOOST_AUTO_TEST_CASE(limit_stops_reads_before_they_start) {
  ReaderFile f(Content(300, 3), {});
  seam::BufferedFile r(f.file, 100, 10);
  r.SkipTo(20);
  BOOST_TEST(r.SetLimit(30));
  std::vector<uint8_t> eleven(11, 0xee);
  BOOST_CHECK_THROW(r.Read(eleven), seam::IoError);
  BOOST_TEST(r.GetPos() == 20u);  // nothing consumed
  BOOST_TEST(std::all_of(eleven.begin(), eleven.end(), [](uint8_t b) { return b == 0xee; }));
  BOOST_TEST(Read(r, 10) == Slice(f.plain, 20, 10), boost::test_tools::per_element());
  BOOST_CHECK_THROW(r.SkipTo(31), seam::IoError);
  BOOST_TEST(!r.SetLimit(29));
  BOOST_TEST(r.SetLimit());
  BOOST_TEST(Read(r, 50) == Slice(f.plain, 30, 50), boost::test_tools::per_element());
}

// FindByte stays on the byte it finds (the current one included) and ignores the limit; at the end of the
// file it throws having consumed everything.
BOOST_AUTO_TEST_CASE(find_byte) {
  std::vector<uint8_t> content(500, 0x11);
  for (const size_t at : {0, 63, 64, 65, 300}) content[at] = 0xf9;
  ReaderFile f(content, kBitKey);
  seam::BufferedFile r(f.file, 64, 8);
  r.FindByte(0xf9);
  BOOST_TEST(r.GetPos() == 0u);
  r.FindByte(0xf9);
  BOOST_TEST(r.GetPos() == 0u);  // stays on it
  r.SkipTo(1);
  BOOST_TEST(r.SetLimit(10));
  r.FindByte(0xf9);
  BOOST_TEST(r.GetPos() == 63u);  // past the limit
  r.SetLimit();
  r.SkipTo(64);
  r.FindByte(0xf9);
  BOOST_TEST(r.GetPos() == 64u);
  r.SkipTo(66);
  r.FindByte(0xf9);
  BOOST_TEST(r.GetPos() == 300u);
  r.SkipTo(301);
  BOOST_CHECK_THROW(r.FindByte(0xf9), seam::IoError);
  BOOST_TEST(r.GetPos() == 500u);
  BOOST_TEST(r.Eof());
}

BOOST_AUTO_TEST_CASE(end_of_file_consumes_what_is_there) {
  ReaderFile f(Content(100, 4), {});
  seam::BufferedFile r(f.file, 32, 4);
  r.SkipTo(90);
  BOOST_TEST(!r.Eof());
  std::vector<uint8_t> dst(20, 0xee);
  BOOST_CHECK_THROW(r.Read(dst), seam::IoError);
  BOOST_TEST(r.GetPos() == 100u);
  BOOST_TEST(Slice(dst, 0, 10) == Slice(f.plain, 90, 10), boost::test_tools::per_element());
  BOOST_TEST(r.Eof());
  BOOST_CHECK_THROW(r.SkipTo(101), seam::IoError);
}

// Positions count from where the file stood when the reader was made; the key stays aligned to the file.
BOOST_AUTO_TEST_CASE(obfuscated_file_from_an_offset) {
  ReaderFile f(Content(400, 5), kBitKey, 13);
  seam::BufferedFile r(f.file, 50, 20);
  BOOST_TEST(r.GetPos() == 0u);
  BOOST_TEST(Read(r, 100) == Slice(f.plain, 13, 100), boost::test_tools::per_element());
  BOOST_TEST(r.SetPos(85));
  BOOST_TEST(Read(r, 30) == Slice(f.plain, 98, 30), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(rewind_must_be_less_than_the_buffer) {
  ReaderFile f(Content(10, 6), {});
  BOOST_CHECK_THROW(seam::BufferedFile(f.file, 8, 8), seam::IoError);
  BOOST_CHECK_NO_THROW(seam::BufferedFile(f.file, 8, 7));
}

BOOST_AUTO_TEST_SUITE_END()
