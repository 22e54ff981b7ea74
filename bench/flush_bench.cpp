// bench_flush: the time and peak memory of flushing a coins cache into a coins store on a real on-disk
// LevelDB, for a list of batch limits (-dbbatchsize), on the build's subject (seam/). Not a Google Benchmark: each run
// is one multi-second flush into a fresh database, made in a child process so that its peak memory is its own.
//
// Per run: a fresh store directory; a cache of `coins` new coins (2 to 3 per txid, scripts from
// bench::kScriptMix, obfuscation on); peak-RSS reset (/proc/self/clear_refs); the timed Flush(); then
// VmHWM. Runs are interleaved (run 1 of every limit, then run 2, ...) so slow phases of a noisy machine
// spread over all limits. One CSV line per run on stdout.
//
// Usage: bench_flush --dir DIR [--coins N] [--batch-mib 1,2,...] [--runs R] [--seed S]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_data.h"
#include "process.h"
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

size_t Positive(const std::string& option, const std::string& text) {
  const std::optional<size_t> v = bench::PositiveNumber(text);
  if (!v) Usage(option + " needs a positive whole number, got '" + text + "'");
  return *v;
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
      c.coins = Positive(arg, value);
    } else if (arg == "--runs") {
      c.runs = static_cast<unsigned>(Positive(arg, value));
    } else if (arg == "--seed") {
      c.seed = Positive(arg, value);
    } else if (arg == "--batch-mib") {
      const auto list = bench::PositiveList(value);
      if (!list) Usage("--batch-mib needs positive whole numbers separated by commas, got '" + value + "'");
      c.batch_mib = *list;
    } else {
      Usage("unknown option '" + arg + "'");
    }
  }
  if (c.dir.empty()) Usage("--dir is required (the stores are created under it, on disk)");
  return c;
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
  const size_t rss_before = bench::StatusKiB("VmRSS");
  // Without the reset the peak would include building the cache.
  const bool reset = bench::ResetPeakRss();
  const auto start = std::chrono::steady_clock::now();
  cache.Flush();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const size_t peak = bench::StatusKiB("VmHWM");
  std::printf("%zu,%u,%zu,%.3f,%zu,%.1f,%.1f,%d\n", batch_mib, run, c.coins, seconds, partial, rss_before / 1024.0,
              peak / 1024.0, reset ? 1 : 0);
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
      const std::string what = "bench_flush: batch " + std::to_string(mib) + " MiB, run " + std::to_string(run);
      if (!bench::RunInChild(what, [&] { RunOnce(c, mib, run); })) {
        std::fprintf(stderr, "%s failed\n", what.c_str());
        return 1;
      }
    }
  }
  std::filesystem::remove_all(c.dir + "/store");
  return 0;
}
