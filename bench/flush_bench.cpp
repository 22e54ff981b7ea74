// bench_flush: the time and peak memory of flushing a coins cache into a coins store on a real on-disk
// LevelDB, for a list of batch limits (-dbbatchsize), on the build's subject (seam/). Not a Google Benchmark: each run is one multi-second
// flush into a fresh database, made in a child process so that its peak memory is its own.
//
// Per run: a fresh store directory; a cache of `coins` new coins (2 to 3 per txid, scripts from
// bench::kScriptMix, obfuscation on); peak-RSS reset (/proc/self/clear_refs); the timed Flush(); then
// VmHWM. Runs are interleaved (run 1 of every limit, then run 2, ...) so slow phases of a noisy machine
// spread over all limits. One CSV line per run on stdout.
//
// Usage: bench_flush --dir DIR [--coins N] [--batch-mib 1,2,...] [--runs R] [--seed S]
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_data.h"
#include "seam/coins_cache.h"
#include "seam/coins_store.h"
#include "seam/obfuscation.h"

namespace {

// The subject of this build: the embedded store (src/), or Bitcoin Core's CCoinsViewDB (the core-bench
// preset, which tools/review runs on a base and a head tree).
using seam::CoinsStore;
using seam::CoinsViewCache;
using seam::Obfuscation;

struct Config {
  std::string dir;
  size_t coins = 2'000'000;
  std::vector<size_t> batch_mib = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
  unsigned runs = 3;
  uint64_t seed = 1;
};

[[noreturn]] void Usage(const std::string& problem) {
  std::cerr << "bench_flush: " << problem << "\n"
            << "usage: bench_flush --dir DIR [--coins N] [--batch-mib 1,2,...] [--runs R] [--seed S]\n";
  std::exit(2);
}

size_t PositiveNumber(const std::string& option, const std::string& text) {
  size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || v == 0) Usage(option + " needs a positive whole number, got '" + text + "'");
  return static_cast<size_t>(v);
}

Config Parse(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) Usage("option '" + arg + "' needs a value");
    const std::string value = argv[++i];
    if (arg == "--dir") {
      c.dir = value;
    } else if (arg == "--coins") {
      c.coins = PositiveNumber(arg, value);
    } else if (arg == "--runs") {
      c.runs = static_cast<unsigned>(PositiveNumber(arg, value));
    } else if (arg == "--seed") {
      c.seed = PositiveNumber(arg, value);
    } else if (arg == "--batch-mib") {
      c.batch_mib.clear();
      size_t start = 0;
      while (start <= value.size()) {
        const size_t comma = std::min(value.find(',', start), value.size());
        c.batch_mib.push_back(PositiveNumber(arg, value.substr(start, comma - start)));
        start = comma + 1;
      }
    } else {
      Usage("unknown option '" + arg + "'");
    }
  }
  if (c.dir.empty()) Usage("--dir is required (the stores are created under it, on disk)");
  return c;
}

// A field of /proc/self/status in KiB (VmRSS, VmHWM).
size_t StatusKiB(const char* field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  const size_t n = std::strlen(field);
  while (std::getline(status, line)) {
    if (line.compare(0, n, field) == 0 && line.size() > n && line[n] == ':') return std::stoul(line.substr(n + 1));
  }
  throw std::runtime_error(std::string("no ") + field + " in /proc/self/status");
}

// The child's work: one flush into a fresh store; prints its CSV line.
void RunOnce(const Config& c, size_t batch_mib, unsigned run) {
  const std::string path = c.dir + "/store";
  std::filesystem::remove_all(path);
  CoinsStore::Options options;
  options.path = path;
  options.batch_size = batch_mib << 20;
  options.new_obfuscation_key = Obfuscation::KeyBytes{0x31, 0x4a, 0x9e, 0x02, 0xc7, 0x5b, 0x88, 0x16};
  CoinsStore store(options);
  size_t partial = 0;
  store.after_partial_write = [&partial](size_t n) { partial = n; };
  CoinsViewCache cache(&store);
  harness::Rng rng(c.seed);
  bench::ForEachNewCoin(rng, c.coins, [&cache](const OutPoint& outpoint, Coin coin) {
    cache.AddCoin(outpoint, std::move(coin), /*possible_overwrite=*/false);
  });
  cache.SetBestBlock(bench::RandomHash(rng));
  const size_t rss_before = StatusKiB("VmRSS");
  // "5" resets the peak RSS (Linux >= 4.0); without it the peak would include building the cache.
  const bool reset = static_cast<bool>(std::ofstream("/proc/self/clear_refs") << "5" << std::flush);
  const auto start = std::chrono::steady_clock::now();
  cache.Flush();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const size_t peak = StatusKiB("VmHWM");
  std::printf("%zu,%u,%zu,%.3f,%zu,%.1f,%.1f,%d\n", batch_mib, run, c.coins, seconds, partial,
              rss_before / 1024.0, peak / 1024.0, reset ? 1 : 0);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const Config c = Parse(argc, argv);
  std::filesystem::create_directories(c.dir);
  std::printf("batch_mib,run,coins,flush_s,partial_batches,rss_before_mib,peak_rss_mib,peak_reset\n");
  std::fflush(stdout);
  for (unsigned run = 1; run <= c.runs; ++run) {
    for (size_t mib : c.batch_mib) {
      const pid_t pid = fork();
      if (pid < 0) {
        std::perror("bench_flush: fork");
        return 1;
      }
      if (pid == 0) {
        try {
          RunOnce(c, mib, run);
        } catch (const std::exception& e) {
          std::fprintf(stderr, "bench_flush: batch %zu MiB, run %u: %s\n", mib, run, e.what());
          _exit(1);
        }
        _exit(0);
      }
      int status = 0;
      waitpid(pid, &status, 0);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "bench_flush: the run for %zu MiB failed\n", mib);
        return 1;
      }
    }
  }
  std::filesystem::remove_all(c.dir + "/store");
  return 0;
}
