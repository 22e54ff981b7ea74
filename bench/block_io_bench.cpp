// Block records written and read one field at a time, through the buffered I/O (src/io/buffered.h: one
// obfuscation and one fwrite per 64 KiB; read-ahead of 64 KiB) against AutoFile calls per field (an
// obfuscated copy and an fwrite or fread per field, stdio's own buffer below), as Bitcoin Core did before
// its buffered block writer and reader. The block: 2,500 typical transactions (bench::MakeBlock, about
// 1.3 MB), a record of [magic][size][block] in a real file under $TMPDIR (default /tmp), obfuscated with a
// non-zero key; each write ends with an fflush so that both hand the same bytes to the kernel.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

#include "bench_data.h"
#include "block_fields.h"
#include "io/buffered.h"
#include "io/file.h"
#include "wire_fields.h"

namespace {

// The benchmarks measure the embedded subject (src/) against simpler baselines.
using namespace embedded;

constexpr Obfuscation::KeyBytes kKey = {0x5e, 0x11, 0xa0, 0x3c, 0x97, 0x08, 0xd2, 0x46};
constexpr uint32_t kMagic = 0xd9b4bef9;  // mainnet's message start, little-endian

const Block& TheBlock() {
  static const Block block = [] {
    harness::Rng rng(4);
    return bench::MakeBlock(rng, 2500, 80);
  }();
  return block;
}

// A file in $TMPDIR, removed at exit. Never destroyed, so that the exit handler can still read it.
const std::string& FilePath() {
  static const std::string& path = *new std::string([] {
    const char* dir = std::getenv("TMPDIR");
    // mkstemp's template: six X's to replace.
    std::string p = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/bench_block_" + std::string(6, 'X');
    const int fd = mkstemp(p.data());
    if (fd < 0) {
      std::perror(("bench: cannot create " + p).c_str());
      std::exit(1);
    }
    close(fd);
    std::atexit([] { std::remove(FilePath().c_str()); });
    return p;
  }());
  return path;
}

AutoFile Open(const char* mode) {
  std::FILE* f = std::fopen(FilePath().c_str(), mode);
  if (f == nullptr) {
    std::perror(("bench: cannot open " + FilePath()).c_str());
    std::exit(1);
  }
  return AutoFile(f, Obfuscation(kKey));
}

// Sinks for harness::PutBlock: every field is one Write call.
struct DirectSink {
  AutoFile& file;
  void Put(const uint8_t* data, size_t n) { file.Write(std::span(data, n)); }
};
struct BufferedSink {
  BufferedWriter& writer;
  void Put(const uint8_t* data, size_t n) { writer.Write(std::span(data, n)); }
};

template <typename Sink>
void PutRecord(Sink& sink, const Block& block) {
  harness::PutLE(sink, kMagic, 4);
  harness::PutLE(sink, SerializedSize(block, true), 4);
  harness::PutBlock(sink, block, true);
}

template <typename Source>
Block GetRecord(Source& source) {
  bench::FieldReader<Source> in(source);
  if (in.LE(4) != kMagic) throw IoError("bench: bad magic");
  in.LE(4);
  return in.Blk();
}

void WriteDirect(AutoFile& file, const Block& block) {
  DirectSink sink{file};
  PutRecord(sink, block);
  file.Flush();
}

void WriteBuffered(AutoFile& file, const Block& block) {
  BufferedWriter writer(file);
  BufferedSink sink{writer};
  PutRecord(sink, block);
  writer.Flush();
  file.Flush();
}

Block ReadDirect() {
  AutoFile file = Open("rb");
  return GetRecord(file);
}

Block ReadBuffered() {
  BufferedReader reader(Open("rb"));
  return GetRecord(reader);
}

void Report(benchmark::State& state) {
  const size_t bytes = SerializedSize(TheBlock(), true) + 8;
  state.counters["block_bytes"] = static_cast<double>(bytes);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

template <void (*Write)(AutoFile&, const Block&)>
void BM_Write(benchmark::State& state) {
  const Block& block = TheBlock();
  AutoFile file = Open("w+b");
  for (auto _ : state) {
    file.Seek(0, SEEK_SET);
    Write(file, block);
  }
  // The bytes on disk must read back as the block, whichever way they were written.
  file.Close();
  if (!(ReadBuffered() == block)) state.SkipWithError("the file does not read back as the block");
  Report(state);
}

template <Block (*Read)()>
void BM_Read(benchmark::State& state) {
  const Block& block = TheBlock();
  {
    AutoFile file = Open("wb");
    WriteBuffered(file, block);
    file.Close();
  }
  if (!(Read() == block)) state.SkipWithError("the record does not read back as the block");
  for (auto _ : state) benchmark::DoNotOptimize(Read());
  Report(state);
}

}  // namespace

BENCHMARK(BM_Write<WriteBuffered>)->Name("BM_BlockWriteBuffered")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Write<WriteDirect>)->Name("BM_BlockWriteDirect")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Read<ReadBuffered>)->Name("BM_BlockReadBuffered")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Read<ReadDirect>)->Name("BM_BlockReadDirect")->Unit(benchmark::kMicrosecond);
