// Helpers shared by several unit suites: scratch directories and files on disk, hex literals, random bytes, a
// FILE* that counts its write calls, and an obfuscation key that shows which key byte hit which data byte.
// A helper used by one suite only stays in that suite's file.
#pragma once

#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rng.h"
#include "seam/file_io.h"
#include "seam/obfuscation.h"

// Positions are compared as optionals, which Boost.Test cannot print; a mismatch prints the test expression.
BOOST_TEST_DONT_PRINT_LOG_VALUE(std::optional<uint64_t>)

namespace unit {

// One bit per key byte, so each obfuscated byte shows which key byte hit it.
inline constexpr seam::Obfuscation::KeyBytes kBitKey{0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80};

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it when this goes out of scope.
// Throws std::runtime_error when it cannot be made.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // The path of `name` inside the directory; nothing is created.
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// Runs `fn` in a child process (fork) and returns whether the child ended by SIGABRT: how a test checks a
// contract that ends the process. The child runs with SIGABRT's default action (not Boost.Test's handler,
// which would go on running tests in it) and exits normally if `fn` returns or throws.
bool AbortsInChild(const std::function<void()>& fn);

// `hex`, an even number of hex digits of either case, as bytes; anything else throws std::invalid_argument.
std::vector<uint8_t> FromHex(std::string_view hex);

// `n` bytes drawn from `rng`.
std::vector<uint8_t> Bytes(harness::Rng& rng, size_t n);

// `path` opened by fopen with `mode`, as an AutoFile through `key`; the test stops if fopen fails. Inline, so
// that only the suites that use it link the file adapter (a Core tree may leave file_io off).
inline seam::AutoFile Open(const std::string& path, const char* mode, const seam::Obfuscation& key = {}) {
  std::FILE* f = std::fopen(path.c_str(), mode);
  BOOST_REQUIRE_MESSAGE(f != nullptr, "fopen " << path);
  return seam::AutoFile(f, key);
}

// The bytes of `path` at [offset, offset + n) as they are on disk; fewer where the file ends first.
std::vector<uint8_t> RawBytes(const std::string& path, uint64_t offset, size_t n);

// A FILE* over memory (fopencookie) that counts write calls and records their sizes: the way to see how many
// writes a BufferedWriter issues. Unbuffered (_IONBF), so each fwrite is one call here. It writes and tells
// its position (ftell), nothing else; the sink must outlive the FILE*.
struct CountingSink {
  std::vector<uint8_t> bytes;
  std::vector<size_t> calls;
  int64_t offset = 0;

  std::FILE* Open();
};

// The lines of the table of what the tree under test lets the suite test (seam::kSubjectTable) that are
// about `component`, joined by " / "; empty for the embedded subject or an empty name.
std::string TableLines(const std::string& component);

// A test case decorator: the case runs where the subject offers `what` (against Bitcoin Core, where the tree
// under test has the API, as the table configure prints says); elsewhere Boost.Test reports it skipped,
// naming what is missing. Usage: BOOST_AUTO_TEST_CASE(name, *unit::Needs(seam::kSomething, "what")).
// Against Bitcoin Core the message also gives the table's lines of the suite's component (SUITE_UNIT_COMPONENT,
// which unit/CMakeLists.txt defines per suite file).
#ifndef SUITE_UNIT_COMPONENT
#define SUITE_UNIT_COMPONENT ""
#endif
inline boost::unit_test::precondition Needs(bool available, std::string what,
                                            std::string component = SUITE_UNIT_COMPONENT) {
  return boost::unit_test::precondition([available, what, component](boost::unit_test::test_unit_id) {
    boost::test_tools::assertion_result result(available);
    result.message() << "the subject under test lacks " << what;
    if (const std::string lines = TableLines(component); !lines.empty()) result.message() << "; the table: " << lines;
    return result;
  });
}
// The same for a behaviour of the subject's (`form` says whether it has the one the case needs), asked when
// the case is about to run: a Core tree's behaviours are decided by running it, never during static
// initialization.
inline boost::unit_test::precondition NeedsForm(bool (*form)(), std::string what) {
  return boost::unit_test::precondition([form, what](boost::unit_test::test_unit_id) {
    boost::test_tools::assertion_result result(form());
    result.message() << "the subject under test has another form of " << what;
    return result;
  });
}

}  // namespace unit
