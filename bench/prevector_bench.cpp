// Script storage: prevector<36> (the subject's Script, src/coins/coin.h) against prevector<28> (the old
// inline size), on 100,000 output scripts with sizes drawn from bench::kScriptMix. Each iteration builds
// every script from its bytes, copies the lot (as a cache copies coins between layers), and destroys both.
// Counters: heap allocations per script (counted, see alloc_count.h), heap bytes per script, and the size of
// the object itself; the time is per script.
#include <benchmark/benchmark.h>

#include <vector>

#include "alloc_count.h"
#include "bench_data.h"
#include "prevector.h"

namespace {

// The benchmarks measure the embedded subject (src/) against simpler baselines.
using namespace embedded;

constexpr size_t kScripts = 100'000;

const std::vector<std::vector<uint8_t>>& ScriptBytes() {
  static const std::vector<std::vector<uint8_t>> scripts = [] {
    harness::Rng rng(3);
    std::vector<std::vector<uint8_t>> out;
    for (size_t i = 0; i < kScripts; ++i) out.push_back(bench::RandomScriptBytes(rng, bench::DrawScriptSize(rng)));
    return out;
  }();
  return scripts;
}

template <unsigned N>
void BM_Scripts(benchmark::State& state) {
  using Vec = prevector<N, uint8_t>;
  const std::vector<std::vector<uint8_t>>& bytes = ScriptBytes();
  std::vector<Vec> built;
  std::vector<Vec> copied;
  built.reserve(bytes.size());
  copied.reserve(bytes.size());
  const uint64_t calls_before = bench::MallocCalls();
  for (auto _ : state) {
    for (const std::vector<uint8_t>& b : bytes) built.emplace_back(b.begin(), b.end());
    for (const Vec& v : built) copied.push_back(v);
    benchmark::DoNotOptimize(copied.data());
    built.clear();
    copied.clear();
  }
  const double scripts = static_cast<double>(state.iterations()) * static_cast<double>(bytes.size());
  state.counters["allocs_per_script"] = static_cast<double>(bench::MallocCalls() - calls_before) / scripts;
  size_t heap_bytes = 0;
  for (const std::vector<uint8_t>& b : bytes) heap_bytes += Vec(b.begin(), b.end()).allocated_memory();
  state.counters["heap_bytes_per_script"] = static_cast<double>(heap_bytes) / static_cast<double>(bytes.size());
  state.counters["object_bytes"] = sizeof(Vec);
  state.counters["scripts"] = static_cast<double>(bytes.size());
  state.SetItemsProcessed(static_cast<int64_t>(scripts));
}

}  // namespace

BENCHMARK(BM_Scripts<36>)->Name("BM_Prevector36")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Scripts<28>)->Name("BM_Prevector28")->Unit(benchmark::kMicrosecond);
