// XOR obfuscation: the subject's 64-bit Obfuscation (src/obfuscation.h) against the bytewise reference loop
// (harness/obfuscation_ref.h), over buffers of 8 B to 1 MiB. Aligned: the buffer starts 8-byte aligned at
// file offset 0. Misaligned: the buffer starts one byte past alignment at file offset 3, so the subject
// needs a head, a rotated key and a tail.
#include <benchmark/benchmark.h>

#include <vector>

#include "obfuscation.h"
#include "obfuscation_ref.h"

namespace {

// The benchmarks measure the embedded subject (src/) against simpler baselines.
using namespace embedded;

constexpr Obfuscation::KeyBytes kKey = {0x9a, 0x31, 0x07, 0xe4, 0x5c, 0xb8, 0x22, 0x6f};

struct Buffer {
  std::vector<uint64_t> storage;  // 8-byte aligned
  std::span<uint8_t> data;
  uint64_t offset;
};

Buffer MakeBuffer(const benchmark::State& state) {
  const size_t size = static_cast<size_t>(state.range(0));
  const bool misaligned = state.range(1) != 0;
  Buffer b;
  b.storage.assign(size / 8 + 2, 0x0123456789abcdef);
  b.data = std::span(reinterpret_cast<uint8_t*>(b.storage.data()) + (misaligned ? 1 : 0), size);
  b.offset = misaligned ? 3 : 0;
  return b;
}

void BM_Xor64(benchmark::State& state) {
  Buffer b = MakeBuffer(state);
  const Obfuscation obfuscation(kKey);
  for (auto _ : state) {
    obfuscation(b.data, b.offset);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * b.data.size()));
}

void BM_XorBytewise(benchmark::State& state) {
  Buffer b = MakeBuffer(state);
  for (auto _ : state) {
    harness::XorRef(b.data, kKey, b.offset);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * b.data.size()));
}

// {bytes, misaligned}
void XorArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"bytes", "misaligned"});
  for (int64_t bytes : {8, 64, 512, 4096, 32768, 262144, 1048576}) {
    for (int64_t misaligned : {0, 1}) b->Args({bytes, misaligned});
  }
}

}  // namespace

BENCHMARK(BM_Xor64)->Apply(XorArgs);
BENCHMARK(BM_XorBytewise)->Apply(XorArgs);
