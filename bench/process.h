// What the on-disk benchmarks (bench_flush, bench_chain) share: each run in a child process, so that its
// peak memory is its own, and the command-line numbers they take.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bench {

// A field of /proc/self/status in KiB (VmRSS, VmHWM); throws std::runtime_error if it is missing.
size_t StatusKiB(const char* field);
// Resets the peak RSS (VmHWM) to the current RSS (Linux >= 4.0); false where the kernel refuses.
bool ResetPeakRss();
// Runs `work` in a forked child; true if it returned without throwing. The child prints what it throws
// to stderr, prefixed with `what`.
bool RunInChild(const std::string& what, const std::function<void()>& work);

// "123" → 123; nothing for anything else, zero included.
std::optional<size_t> PositiveNumber(const std::string& text);
// "1,2,16" → {1, 2, 16}; nothing unless every item is a positive number.
std::optional<std::vector<size_t>> PositiveList(const std::string& text);
// The bytes of the regular files under `dir`.
size_t DirectoryBytes(const std::string& dir);

}  // namespace bench
