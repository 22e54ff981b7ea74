// AutoFile, BufferedWriter and BufferedReader (seam/file_io.h, docs/semantics.md §3): a known-answer file worked
// out by hand, the writer's one write call per full buffer, the reader at end of file and in step after
// read-ahead, unknown positions, fault injection (a full disk, a file-size limit, short reads, failing reads
// and seeks), and seeded random runs of the FileIoTester property.
// Real files live in a fresh directory under $TMPDIR (or /tmp), removed when each test ends.
#include <boost/test/unit_test.hpp>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "file_tester.h"
#include "known_bugs.h"
#include "obfuscation_ref.h"
#include "rng.h"
#include "seam/file_io.h"
#include "test_util.h"

namespace {

using unit::Bytes;
using unit::CountingSink;
using unit::FromHex;
using unit::kBitKey;
using unit::Open;
using unit::RawBytes;
using unit::TempDir;

constexpr uint64_t k4GiB = uint64_t{1} << 32;

uint64_t FileSize(const std::string& path) {
  struct stat st;
  BOOST_REQUIRE(stat(path.c_str(), &st) == 0);
  return static_cast<uint64_t>(st.st_size);
}

// A FILE* over a 100-byte stream of zeros (fopencookie) whose reads fail on demand and whose seeks fail
// after a given number of successful calls: read errors and seek failures that real files rarely show.
struct FaultyStream {
  int64_t offset = 0;
  int seeks_left = 1000;
  bool fail_reads = false;

  std::FILE* Open() {
    cookie_io_functions_t io{};
    io.read = [](void* self, char* data, size_t n) -> ssize_t {
      auto& s = *static_cast<FaultyStream*>(self);
      if (s.fail_reads) {
        errno = EIO;
        return -1;
      }
      const size_t got = std::min<size_t>(n, s.offset < 100 ? static_cast<size_t>(100 - s.offset) : 0);
      std::memset(data, 0, got);
      s.offset += static_cast<int64_t>(got);
      return static_cast<ssize_t>(got);
    };
    io.write = [](void* self, const char*, size_t n) -> ssize_t {
      static_cast<FaultyStream*>(self)->offset += static_cast<int64_t>(n);
      return static_cast<ssize_t>(n);
    };
    io.seek = [](void* self, off64_t* at, int whence) -> int {
      auto& s = *static_cast<FaultyStream*>(self);
      if (s.seeks_left-- <= 0) {
        errno = EIO;
        return -1;
      }
      s.offset = (whence == SEEK_SET ? 0 : whence == SEEK_CUR ? s.offset : 100) + *at;
      *at = s.offset;
      return 0;
    };
    std::FILE* f = fopencookie(this, "r+", io);
    BOOST_REQUIRE(f != nullptr);
    return f;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(file_io_tests)

BOOST_AUTO_TEST_CASE(known_answer_file) {
  TempDir dir;
  const std::string path = dir.File("known");
  {
    seam::AutoFile f = Open(path, "w+b", seam::Obfuscation(kBitKey));
    BOOST_TEST(f.Position() == std::optional<uint64_t>(0));
    f.Seek(3, SEEK_SET);
    const std::vector<uint8_t> ones(6, 0xff);
    f.Write(ones);
    BOOST_TEST(ones == std::vector<uint8_t>(6, 0xff), boost::test_tools::per_element());  // caller data intact
    // 2^32 + 5 = 5 (mod 8): three zero bytes meet key[5], key[6], key[7]; the gap is a hole.
    f.Seek(static_cast<int64_t>(k4GiB + 5), SEEK_SET);
    {
      seam::BufferedWriter w(f, 2);
      w.Write(std::vector<uint8_t>{0, 0, 0});
    }
    BOOST_TEST(f.Position() == std::optional<uint64_t>(k4GiB + 8));
    f.Close();
  }
  // Offsets 0..2 are a hole (raw zeros); offsets 3..8 hold 0xff XOR key[3], ..., key[7], key[0]:
  // ff^08 = f7, ff^10 = ef, ff^20 = df, ff^40 = bf, ff^80 = 7f, ff^01 = fe.
  BOOST_TEST(RawBytes(path, 0, 9) == FromHex("000000f7efdfbf7ffe"), boost::test_tools::per_element());
  BOOST_TEST(RawBytes(path, k4GiB + 4, 4) == FromHex("00204080"), boost::test_tools::per_element());
  BOOST_TEST(FileSize(path) == k4GiB + 8);

  // Reading back through the key: the hole reads as the key bytes themselves (0 XOR key).
  seam::AutoFile f = Open(path, "rb", seam::Obfuscation(kBitKey));
  std::vector<uint8_t> got(9);
  f.Read(got);
  BOOST_TEST(got == FromHex("010204ffffffffffff"), boost::test_tools::per_element());
  f.Seek(-3, SEEK_END);
  BOOST_TEST(f.Position() == std::optional<uint64_t>(k4GiB + 5));
  f.Read(std::span(got).first(3));
  BOOST_TEST(FromHex("000000") == std::vector<uint8_t>(got.begin(), got.begin() + 3), boost::test_tools::per_element());
  BOOST_TEST(f.Size() == std::optional<uint64_t>(k4GiB + 8));
  BOOST_TEST(f.Position() == std::optional<uint64_t>(k4GiB + 8));
}

BOOST_AUTO_TEST_CASE(zero_key_writes_plaintext) {
  TempDir dir;
  const std::string path = dir.File("plain");
  const std::vector<uint8_t> data{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  {
    seam::AutoFile f = Open(path, "wb");
    BOOST_TEST(!static_cast<bool>(f.obfuscation()));
    f.Write(std::span(data).first(4));
    seam::BufferedWriter w(f, 4);
    w.Write(std::span(data).subspan(4));
    w.Flush();
    std::vector<uint8_t> consumed{12, 13};
    f.WriteConsume(consumed);
    BOOST_TEST(consumed == std::vector<uint8_t>({12, 13}), boost::test_tools::per_element());
    f.Close();
  }
  BOOST_TEST(RawBytes(path, 0, 100) == std::vector<uint8_t>({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}),
             boost::test_tools::per_element());
}

// Writes never modify the caller's data; WriteConsume is the explicit in-place variant.
BOOST_AUTO_TEST_CASE(write_keeps_caller_data) {
  TempDir dir;
  const std::string path = dir.File("f");
  harness::Rng rng(3);
  const std::vector<uint8_t> data = Bytes(rng, 10000);  // several 4 KiB chunks
  std::vector<uint8_t> copy = data;
  seam::AutoFile f = Open(path, "w+b", seam::Obfuscation(kBitKey));
  f.Seek(5, SEEK_SET);
  f.Write(copy);
  BOOST_TEST(copy == data);
  f.WriteConsume(copy);
  f.Close();
  std::vector<uint8_t> raw = data;
  harness::XorRef(raw, kBitKey, 5);
  BOOST_TEST(RawBytes(path, 5, 10000) == raw);
  raw = data;
  harness::XorRef(raw, kBitKey, 10005);  // the consumed copy landed right after
  BOOST_TEST(RawBytes(path, 10005, 10000) == raw);
}

// Every data alignment, file offset residue and short length, through each path that obfuscates.
BOOST_AUTO_TEST_CASE(any_alignment_and_offset) {
  TempDir dir;
  const std::string path = dir.File("aligned");
  harness::Rng rng(9);
  alignas(8) uint8_t buf[64 + 8];
  for (size_t alignment = 0; alignment < 8; ++alignment) {
    for (uint64_t offset = 0; offset < 16; ++offset) {
      for (size_t len = 1; len <= 40; len += 3) {
        BOOST_TEST_CONTEXT("alignment " << alignment << ", offset " << offset << ", length " << len) {
          const std::vector<uint8_t> data = Bytes(rng, len);
          const std::span<uint8_t> at(buf + alignment, len);
          seam::AutoFile f = Open(path, "w+b", seam::Obfuscation(kBitKey));
          f.Seek(static_cast<int64_t>(offset), SEEK_SET);
          std::copy(data.begin(), data.end(), at.begin());
          f.Write(at);
          std::copy(data.begin(), data.end(), at.begin());
          f.WriteConsume(at);
          f.Flush();
          std::vector<uint8_t> raw = data;
          harness::XorRef(raw, kBitKey, offset);
          std::vector<uint8_t> raw2 = data;
          harness::XorRef(raw2, kBitKey, offset + len);
          raw.insert(raw.end(), raw2.begin(), raw2.end());
          BOOST_TEST(RawBytes(path, offset, 2 * len) == raw);
          f.Seek(static_cast<int64_t>(offset + len), SEEK_SET);
          f.Read(at);
          BOOST_TEST(std::equal(at.begin(), at.end(), data.begin(), data.end()));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(buffered_writer_one_write_per_full_buffer) {
  for (const size_t size : {size_t{1} << 16, size_t{1000}, size_t{7}}) {
    BOOST_TEST_CONTEXT("buffer size " << size) {
      CountingSink sink;
      seam::AutoFile f(sink.Open(), seam::Obfuscation(kBitKey));
      BOOST_REQUIRE(f.Position() == std::optional<uint64_t>(0));
      harness::Rng rng(size);
      std::vector<uint8_t> all;
      {
        seam::BufferedWriter w(f, size);
        // 3.5 buffers in pieces of odd sizes (some larger than the buffer).
        while (all.size() < size * 7 / 2) {
          const auto piece = Bytes(rng, std::min<size_t>(rng.Range(1, 3 * size / 2 + 1), size * 7 / 2 - all.size()));
          w.Write(piece);
          all.insert(all.end(), piece.begin(), piece.end());
          BOOST_TEST(sink.calls.size() == all.size() / size);  // one call per full buffer, no more
        }
        BOOST_TEST(w.buffered() == all.size() % size);
        BOOST_TEST(w.Position() == std::optional<uint64_t>(all.size()));
      }  // the destructor writes the last partial buffer
      BOOST_TEST(sink.calls.size() == all.size() / size + 1);
      for (size_t i = 0; i + 1 < sink.calls.size(); ++i) BOOST_TEST(sink.calls[i] == size);
      harness::XorRef(all, kBitKey, 0);
      BOOST_TEST(sink.bytes == all);
      f.Close();
    }
  }
}

// Buffered and direct writes mixed on one file (the writer flushed before each direct use) give the same
// bytes as all-direct writes.
BOOST_AUTO_TEST_CASE(buffered_and_direct_writes_mixed) {
  TempDir dir;
  const std::string mixed = dir.File("mixed"), direct = dir.File("direct");
  harness::Rng rng(11);
  seam::AutoFile a = Open(mixed, "wb", seam::Obfuscation(kBitKey));
  seam::AutoFile b = Open(direct, "wb", seam::Obfuscation(kBitKey));
  {
    seam::BufferedWriter w(a, 13);
    for (int i = 0; i < 200; ++i) {
      const auto piece = Bytes(rng, rng.Below(40));
      if (rng.Chance(30)) {
        w.Flush();
        a.Write(piece);
      } else {
        w.Write(piece);
      }
      b.Write(piece);
      BOOST_TEST(w.Position() == b.Position());
    }
  }
  a.Close();
  b.Close();
  BOOST_TEST(RawBytes(mixed, 0, 1 << 16) == RawBytes(direct, 0, 1 << 16));
}

// A buffer size of 0: taken as 1 (the bytes arrive), or as given (seam::kZeroBufferSizeIsOne false: a
// writer with no room drops them).
BOOST_AUTO_TEST_CASE(zero_size_writer) {
  CountingSink sink;
  seam::AutoFile f(sink.Open());
  {
    seam::BufferedWriter w(f, 0);
    w.Write(std::vector<uint8_t>{1, 2, 3});
    w.Flush();
  }
  BOOST_TEST(sink.bytes.size() == (seam::kZeroBufferSizeIsOne ? 3u : 0u));
  f.Close();
}

BOOST_AUTO_TEST_CASE(reader_at_eof_and_position_after_read_ahead) {
  TempDir dir;
  const std::string path = dir.File("r");
  harness::Rng rng(5);
  const std::vector<uint8_t> data = Bytes(rng, 100);
  {
    seam::AutoFile f = Open(path, "wb", seam::Obfuscation(kBitKey));
    f.Write(data);
    f.Close();
  }
  seam::AutoFile f = Open(path, "rb", seam::Obfuscation(kBitKey));
  f.Seek(3, SEEK_SET);
  seam::BufferedReader r(std::move(f), 16);
  BOOST_TEST(!f.IsOpen());  // moved into the reader
  std::vector<uint8_t> got(64, 0xa5);
  r.Read(std::span(got).first(1));
  BOOST_TEST(got[0] == data[3]);
  BOOST_TEST(r.Position() == std::optional<uint64_t>(4));  // not 19: 15 bytes are read ahead, unconsumed
  r.Read(std::span(got).first(20));                        // 15 from the buffer, then a refill
  BOOST_TEST(std::equal(got.begin(), got.begin() + 20, data.begin() + 4));
  BOOST_TEST(r.Position() == std::optional<uint64_t>(24));
  r.Read(std::span(got).first(40));  // larger than the buffer: straight from the file
  BOOST_TEST(std::equal(got.begin(), got.begin() + 40, data.begin() + 24));
  BOOST_TEST(r.Position() == std::optional<uint64_t>(64));
  r.Read(std::span(got).first(30));
  BOOST_TEST(r.Position() == std::optional<uint64_t>(94));
  // 6 bytes remain; asking for 10 copies those 6, leaves the rest untouched, and throws.
  std::fill(got.begin(), got.end(), 0xa5);
  BOOST_CHECK_THROW(r.Read(std::span(got).first(10)), seam::IoError);
  BOOST_TEST(std::equal(got.begin(), got.begin() + 6, data.begin() + 94));
  BOOST_TEST(std::all_of(got.begin() + 6, got.end(), [](uint8_t b) { return b == 0xa5; }));
  BOOST_TEST(r.Position() == std::optional<uint64_t>(100));
  BOOST_CHECK_THROW(r.Read(std::span(got).first(1)), seam::IoError);
  BOOST_CHECK_THROW(r.Read(std::span(got).first(40)), seam::IoError);
  r.Read({});  // nothing asked, nothing to throw about
}

BOOST_AUTO_TEST_CASE(short_reads_are_errors) {
  TempDir dir;
  const std::string path = dir.File("short");
  const std::vector<uint8_t> data{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  {
    seam::AutoFile f = Open(path, "wb", seam::Obfuscation(kBitKey));
    f.Write(data);
    f.Close();
  }
  seam::AutoFile f = Open(path, "rb", seam::Obfuscation(kBitKey));
  f.Seek(4, SEEK_SET);
  std::vector<uint8_t> got(16, 0xa5);
  BOOST_CHECK_THROW(f.Read(got), seam::IoError);
  // Only the 6 bytes read are deobfuscated (at offsets 4..9); the other 10 are untouched.
  BOOST_TEST(std::vector<uint8_t>(got.begin(), got.begin() + 6) == std::vector<uint8_t>({5, 6, 7, 8, 9, 10}),
             boost::test_tools::per_element());
  BOOST_TEST(std::all_of(got.begin() + 6, got.end(), [](uint8_t b) { return b == 0xa5; }));
  BOOST_TEST(f.Position() == std::optional<uint64_t>(10));
  f.Seek(2, SEEK_SET);
  f.Ignore(5);
  BOOST_TEST(f.Position() == std::optional<uint64_t>(7));
  BOOST_CHECK_THROW(f.Ignore(5), seam::IoError);
  if (seam::kShortIgnorePositionExact) {
    BOOST_TEST(f.Position() == std::optional<uint64_t>(10));
  } else {
    BOOST_TEST(f.Position().value_or(99) <= 10u);  // unspecified, but not past the end
  }
  f.Seek(0, SEEK_SET);
  BOOST_TEST(f.ReadSome(got) == 10u);
  BOOST_CHECK_THROW(f.Seek(-1, SEEK_SET), seam::IoError);
  BOOST_TEST(f.Position() == std::optional<uint64_t>(10));
}

BOOST_AUTO_TEST_CASE(unknown_position) {
  int fds[2];
  BOOST_REQUIRE(pipe(fds) == 0);
  seam::AutoFile out(fdopen(fds[1], "wb"), seam::Obfuscation(kBitKey));
  seam::AutoFile in(fdopen(fds[0], "rb"), seam::Obfuscation(kBitKey));
  BOOST_TEST(!out.Position());
  BOOST_TEST(!in.Position());
  const std::vector<uint8_t> data{1, 2, 3};
  BOOST_CHECK_THROW(out.Write(data), seam::IoError);
  std::vector<uint8_t> buf(3);
  BOOST_CHECK_THROW(out.WriteConsume(buf), seam::IoError);
  out.Close();  // nothing was written: closing succeeds. (Closed first: a subject that reads before it
                // checks the position would wait forever on a pipe with a writer.)
  BOOST_CHECK_THROW(in.Read(buf), seam::IoError);
  BOOST_CHECK_THROW(in.ReadSome(buf), seam::IoError);
  BOOST_CHECK_THROW(in.Seek(0, SEEK_SET), seam::IoError);  // a pipe cannot seek
  if (seam::kSizeUnknownPositionThrows) {
    BOOST_CHECK_THROW(in.Size(), seam::IoError);
  } else {
    BOOST_TEST(!in.Size());
  }
  in.Close();

  // With the zero key the position is not needed: the data goes through as plaintext.
  BOOST_REQUIRE(pipe(fds) == 0);
  seam::AutoFile plain_out(fdopen(fds[1], "wb"));
  seam::AutoFile plain_in(fdopen(fds[0], "rb"));
  plain_out.Write(data);
  plain_out.Close();
  std::vector<uint8_t> got(3);
  plain_in.Read(got);
  BOOST_TEST(got == data, boost::test_tools::per_element());
  plain_in.Ignore(0);
  BOOST_CHECK_THROW(plain_in.Ignore(1), seam::IoError);
  BOOST_TEST(!plain_in.Position());
}

BOOST_AUTO_TEST_CASE(read_errors_and_seek_failures) {
  std::vector<uint8_t> buf(4, 0xa5);
  {
    FaultyStream s;
    s.fail_reads = true;
    seam::AutoFile f(s.Open());
    BOOST_CHECK_EXCEPTION(f.Read(buf), seam::IoError, [](const seam::IoError& e) {
      return std::string(e.what()).find("fread failed") != std::string::npos;
    });
    BOOST_TEST(f.Position() == std::optional<uint64_t>(0));
  }
  {
    FaultyStream s;
    s.seeks_left = 1;  // the ftell when wrapped
    seam::AutoFile f(s.Open());
    BOOST_REQUIRE(f.Position() == std::optional<uint64_t>(0));
    f.Read(buf);
    if (seam::kDirectionChangeSeeks) {
      BOOST_CHECK_THROW(f.Write(buf), seam::IoError);  // switching from reading to writing needs a seek
    }
    BOOST_CHECK_THROW(f.Size(), seam::IoError);  // the seek to the end fails
  }
  for (int seeks = 2; seeks <= 3; ++seeks) {
    FaultyStream s;
    s.seeks_left = seeks;  // the ftell when wrapped, then the seek to the end; maybe the ftell there
    seam::AutoFile f(s.Open());
    BOOST_CHECK_THROW(f.Size(), seam::IoError);  // cannot return to the position
    if (seam::kPositionUnknownAfterFailedSeek) BOOST_TEST(!f.Position());
  }
}

// With no position (a pipe) and the zero key, buffered writing and reading work and report no position.
BOOST_AUTO_TEST_CASE(buffered_on_a_pipe) {
  int fds[2];
  BOOST_REQUIRE(pipe(fds) == 0);
  seam::AutoFile out(fdopen(fds[1], "wb"));
  const std::vector<uint8_t> data{1, 2, 3, 4, 5};
  {
    seam::BufferedWriter w(out, 2);
    w.Write(data);
    BOOST_TEST(!w.Position());
  }
  out.Close();
  seam::BufferedReader r(seam::AutoFile(fdopen(fds[0], "rb")), 3);
  std::vector<uint8_t> got(5);
  r.Read(got);
  BOOST_TEST(got == data, boost::test_tools::per_element());
  BOOST_TEST(!r.Position());
}

BOOST_AUTO_TEST_CASE(closed_file_throws) {
  seam::AutoFile f(nullptr);
  BOOST_TEST(!f.IsOpen());
  std::vector<uint8_t> buf(4);
  BOOST_CHECK_THROW(f.Read(buf), seam::IoError);
  BOOST_CHECK_THROW(f.Write(buf), seam::IoError);
  BOOST_CHECK_THROW(f.Seek(0, SEEK_SET), seam::IoError);
  BOOST_CHECK_THROW(f.Ignore(1), seam::IoError);
  BOOST_CHECK_THROW(f.Flush(), seam::IoError);
  BOOST_CHECK_THROW(f.Size(), seam::IoError);
  f.Close();  // closing a closed file does nothing
}

// A full disk: data buffered by stdio is reported lost by Flush or Close, never silently.
BOOST_AUTO_TEST_CASE(full_disk_surfaces_as_errors) {
  const std::vector<uint8_t> small(10, 7), large(1 << 20, 7);
  {
    seam::AutoFile f = Open("/dev/full", "wb", seam::Obfuscation(kBitKey));
    f.Write(small);  // sits in stdio's buffer
    BOOST_CHECK_THROW(f.Close(), seam::IoError);
  }
  {
    seam::AutoFile f = Open("/dev/full", "wb");
    BOOST_CHECK_THROW(f.Write(large), seam::IoError);  // larger than stdio's buffer: fails at once
    // Without a remembered failure, Close() says what fclose says: nothing is left to flush, so success.
    if (seam::kFailedWriteRemembered) {
      BOOST_CHECK_THROW(f.Write(small), seam::IoError);  // the file stays failed
      BOOST_CHECK_THROW(f.Close(), seam::IoError);
    }
  }
  {
    seam::AutoFile f = Open("/dev/full", "wb");
    f.Write(small);
    BOOST_CHECK_THROW(f.Flush(), seam::IoError);
    if (seam::kFailedWriteRemembered) BOOST_CHECK_THROW(f.Close(), seam::IoError);
  }
}

BOOST_AUTO_TEST_CASE(full_disk_in_buffered_writer_paths) {
  const std::vector<uint8_t> small(10, 7);
  // A writer whose flush failed must survive its destruction; Bitcoin Core's retries the flush, and its
  // destructor's flush ends the program on a full disk (forms of a known bug, harness/known_bugs.h): each of
  // the first two cases is known-failing where its form is present.
  if (harness::KnownBugCheckRuns(harness::KnownBug::kWriterPlaintext)) {
    seam::AutoFile f = Open("/dev/full", "wb", seam::Obfuscation(kBitKey));
    seam::BufferedWriter w(f, 1 << 16);
    BOOST_CHECK_THROW(w.Write(std::vector<uint8_t>(1 << 20)), seam::IoError);  // the first full buffer fails
    w.Write(small);
    if (seam::kFailedWriteRemembered) {
      BOOST_CHECK_THROW(w.Flush(), seam::IoError);  // the file stays failed
    } else {
      w.Flush();  // small reaches stdio's buffer: fclose finds the disk full
    }
    BOOST_CHECK_THROW(f.Close(), seam::IoError);
  }
  if (harness::KnownBugCheckRuns(harness::KnownBug::kWriterDestructorTerminate)) {
    // The destructor's flush cannot throw; the failure shows when the file is closed where it is
    // remembered. setvbuf(_IONBF) so the write call itself fails, not a later fflush.
    std::FILE* raw = std::fopen("/dev/full", "wb");
    BOOST_REQUIRE(raw != nullptr);
    setvbuf(raw, nullptr, _IONBF, 0);
    seam::AutoFile f(raw);
    {
      seam::BufferedWriter w(f, 64);
      w.Write(small);
    }
    if (seam::kFailedWriteRemembered) BOOST_CHECK_THROW(f.Close(), seam::IoError);
  }
  {
    std::FILE* raw = std::fopen("/dev/full", "wb");
    BOOST_REQUIRE(raw != nullptr);
    seam::AutoFile f(raw);
    f.Write(small);
    BOOST_CHECK_THROW(f.Seek(0, SEEK_SET), seam::IoError);  // the pending data fails to flush first
    if (seam::kFailedWriteRemembered) BOOST_CHECK_THROW(f.Close(), seam::IoError);
  }
  {
    // Not closed explicitly: the destructor reports the lost data on stderr (it cannot throw).
    seam::AutoFile f = Open("/dev/full", "wb");
    f.Write(small);
  }
  {
    // An obfuscated write that fails at once (unbuffered), then a destructor whose fclose succeeds: the
    // earlier failure is still reported.
    std::FILE* raw = std::fopen("/dev/full", "wb");
    BOOST_REQUIRE(raw != nullptr);
    setvbuf(raw, nullptr, _IONBF, 0);
    seam::AutoFile f(raw, seam::Obfuscation(kBitKey));
    BOOST_CHECK_THROW(f.Write(small), seam::IoError);
    if (seam::kFailedWriteRemembered) BOOST_TEST(!f.Position());
  }
}

// A file-size limit (RLIMIT_FSIZE) makes a write fail part-way. Run in a child process so the limit and the
// ignored SIGXFSZ affect nothing else; the child reports through its exit status.
BOOST_AUTO_TEST_CASE(file_size_limit_fails_part_way) {
  TempDir dir;
  const std::string path = dir.File("limited");
  constexpr rlim_t kLimit = 1000;
  const pid_t pid = fork();
  BOOST_REQUIRE(pid >= 0);
  if (pid == 0) {
    std::signal(SIGXFSZ, SIG_IGN);  // else the kernel kills the writer instead of failing the write
    const rlimit limit{kLimit, kLimit};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(10);
    int status = 0;
    std::FILE* raw = std::fopen(path.c_str(), "wb");
    if (raw == nullptr) _exit(11);
    seam::AutoFile f(raw, seam::Obfuscation(kBitKey));
    seam::BufferedWriter w(f, 600);
    std::vector<uint8_t> data(500, 1);
    try {
      w.Write(data);  // 500 buffered
      w.Write(data);  // a 600-byte call to stdio, still under the limit
      w.Flush();      // 400 more: stdio's write of 1000 bytes fits, exactly
      w.Write(data);
      w.Write(data);  // over the limit: the write system call comes up short or fails
      f.Flush();
      status = 1;  // no error for data past the limit
    } catch (const seam::IoError&) {
    }
    try {
      f.Close();
      if (seam::kFailedWriteRemembered) status = 2;  // closing reported success for an incomplete file
    } catch (const seam::IoError&) {
    }
    _exit(status);
  }
  int status = 0;
  BOOST_REQUIRE(waitpid(pid, &status, 0) == pid);
  BOOST_REQUIRE(WIFEXITED(status));
  BOOST_TEST(WEXITSTATUS(status) == 0,
             "child: 1 = write past the limit succeeded, 2 = Close succeeded, "
             "10/11 = setup failed");
  BOOST_TEST(FileSize(path) <= kLimit);
}

BOOST_AUTO_TEST_CASE(read_write_switching_and_moves) {
  TempDir dir;
  const std::string path = dir.File("rw");
  seam::AutoFile f = Open(path, "w+b", seam::Obfuscation(kBitKey));
  const std::vector<uint8_t> data{10, 20, 30, 40, 50, 60};
  f.Write(data);
  f.Seek(2, SEEK_SET);
  std::vector<uint8_t> two(2);
  f.Read(two);                        // 30 40
  f.Write(std::vector<uint8_t>{99});  // at offset 4, right after reading
  std::vector<uint8_t> one(1);
  f.Read(one);  // offset 5: 60
  BOOST_TEST(two == std::vector<uint8_t>({30, 40}), boost::test_tools::per_element());
  BOOST_TEST(one[0] == 60);
  f.Seek(-2, SEEK_CUR);
  f.Read(one);
  BOOST_TEST(one[0] == 99);
  seam::AutoFile g(std::move(f));
  BOOST_TEST(g.Position() == std::optional<uint64_t>(5));
  BOOST_CHECK_THROW(f.Read(one), seam::IoError);  // moved from
  g.Close();
  g.Close();
}

BOOST_AUTO_TEST_CASE(random_file_sequences) {
  const uint64_t seed = harness::TestSeed(20261123);
  BOOST_TEST_MESSAGE("file_io random_file_sequences: SEED=" << seed);
  BOOST_TEST_CONTEXT("SEED=" << seed) {
    harness::Rng rng(seed);
    int applied = 0;
    for (int run = 0; run < 60; ++run) {
      std::array<uint8_t, 8> key{};
      if (!rng.Chance(20)) {
        for (auto& b : key) b = static_cast<uint8_t>(rng.Next());
      }
      harness::FileIoTester tester(key);
      for (int step = 0; step < 40; ++step) {
        harness::FileStep s;
        // A failing disk ends a run: rarely, so that runs are long.
        do {
          s.op = static_cast<harness::FileOp>(rng.Below(harness::kFileOpCount));
        } while (s.op == harness::FileOp::kFail && !rng.Chance(2));
        const uint64_t len_class = rng.Below(10);
        s.len = static_cast<uint32_t>(len_class < 5   ? rng.Below(20)
                                      : len_class < 9 ? rng.Below(5000)
                                                      : rng.Range(60000, harness::FileIoTester::kMaxLen));
        const int w = rng.Chance(50) ? 1 : 0;
        const uint64_t in_window = rng.Chance(50) ? harness::FileModel::kWindowSize / 2 + rng.Below(64) - 32
                                                  : rng.Below(harness::FileModel::kWindowSize);
        s.target = harness::FileModel::kWindowBase[w] + (w == 0 ? rng.Below(70000) : in_window);
        s.mech = static_cast<uint8_t>(rng.Next());
        s.seed = static_cast<uint32_t>(rng.Next());
        applied += tester.Apply(s);
      }
      tester.Finish();
    }
    BOOST_TEST(applied > 60 * 40 / 2);  // most steps apply (the rest do not fit the state)
  }
}

BOOST_AUTO_TEST_SUITE_END()
