// bench_chain: a node's work on a synthetic chain, timed per phase, on the build's subject (seam/: the
// embedded one, or Bitcoin Core's classes with the core-bench preset, which tools/review runs on a base
// and a head and `tools/bench --core DIR` on one tree).
//
// Per run, in a child process (its peak memory is its own), on a fresh directory on disk: the blocks of
// bench::SyntheticChain, each
//   connect  through an overlay (CoinsViewOverlay, fetching ahead with --workers threads where the tree
//            has one; a plain cache where it does not) over the coins cache: every input spent with its
//            coin moved out into the undo data, every output added (AddCoins), the best block set, and
//            the overlay flushed into the cache;
//   flush    when the cache's memory is over --dbcache-mib, Flush into the coins store (a real LevelDB,
//            obfuscated), else every --sync-every blocks Sync (a node's periodic write, cache kept);
//   write    the block and its undo data (serialized CBlockUndo of the coins spent) through the block
//            store (Core's BlockManager: WriteBlock, WriteBlockUndo; blk/rev files of a node's size,
//            obfuscated);
//   read     both records read back (ReadBlock, ReadBlockUndo) and compared with what was written;
// then   final   the last Flush, in batches of --dbbatch-mib (-dbbatchsize).
// The seam's adapters convert between the suite's types and Core's on every call, the same on both trees,
// so a change's ratio is diluted, never inflated. One CSV line per run on stdout.
//
// Usage: bench_chain --dir DIR [--blocks N] [--txs T] [--dbcache-mib M] [--dbbatch-mib B] [--sync-every K]
//                    [--workers W] [--runs R] [--seed S]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "chain.h"
#include "harness/coins_store_model.h"
#include "process.h"
#include "seam/block_store.h"
#include "seam/coins_cache.h"
#include "seam/coins_store.h"
#include "seam/obfuscation.h"

namespace {

struct Config {
  std::string dir;
  size_t blocks = 1000;
  size_t txs = 500;
  size_t dbcache_mib = 32;
  size_t dbbatch_mib = 16;
  size_t sync_every = 100;
  size_t workers = 2;
  unsigned runs = 1;
  uint64_t seed = 1;
};

constexpr const char* kUsage =
    "usage: bench_chain --dir DIR [--blocks N] [--txs T] [--dbcache-mib M] [--dbbatch-mib B] [--sync-every K]\n"
    "                   [--workers W] [--runs R] [--seed S]\n";

[[noreturn]] void Usage(const std::string& problem) {
  std::cerr << "bench_chain: " << problem << "\n" << kUsage;
  std::exit(2);
}

Config Parse(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) Usage("option '" + arg + "' needs a value");
    const std::string value = argv[++i];
    if (arg == "--dir") {
      c.dir = value;
      continue;
    }
    const std::optional<size_t> n = bench::PositiveNumber(value);
    // --workers alone may be 0: fetching on the connecting thread.
    if (!n && !(arg == "--workers" && value == "0")) Usage(arg + " needs a positive whole number, got '" + value + "'");
    const size_t v = n.value_or(0);
    if (arg == "--blocks") {
      c.blocks = v;
    } else if (arg == "--txs") {
      c.txs = v;
    } else if (arg == "--dbcache-mib") {
      c.dbcache_mib = v;
    } else if (arg == "--dbbatch-mib") {
      c.dbbatch_mib = v;
    } else if (arg == "--sync-every") {
      c.sync_every = v;
    } else if (arg == "--workers") {
      if (v > static_cast<size_t>(seam::CoinsViewOverlay::kMaxWorkers)) {
        Usage("--workers is at most " + std::to_string(seam::CoinsViewOverlay::kMaxWorkers));
      }
      c.workers = v;
    } else if (arg == "--runs") {
      c.runs = static_cast<unsigned>(v);
    } else if (arg == "--seed") {
      c.seed = v;
    } else {
      Usage("unknown option '" + arg + "'");
    }
  }
  if (c.dir.empty()) Usage("--dir is required (the chain's store and block files are made under it, on disk)");
  return c;
}

// The undo data of a coin as a node writes it (Core's TxInUndoFormatter): varint(height·2 + coinbase), a
// zero varint where the height is not 0 (the old version field), the compressed amount and script. Encoded
// by the harness's reference (linked in both flavors; the embedded store's encoder is not in Core's).
void AppendUndoCoin(std::vector<uint8_t>& out, const Coin& coin) {
  std::string bytes = harness::RefVarInt(uint64_t{coin.height} * 2 + (coin.coinbase ? 1 : 0));
  if (coin.height > 0) bytes += harness::RefVarInt(0);
  bytes += harness::RefVarInt(harness::RefCompressAmount(static_cast<uint64_t>(coin.amount)));
  bytes += harness::RefCompressScript(coin.script);
  out.insert(out.end(), bytes.begin(), bytes.end());
}

// Runs `work` and adds its time to `seconds`.
void Time(double& seconds, const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

// One function per phase, never inlined, with a name callgrind can find: tools/review counts the
// instructions of each phase as the inclusive cost of its function (bench_chain_phase_*).
#define BENCH_CHAIN_PHASE(name)                                                                                    \
  extern "C" [[gnu::noinline]] void bench_chain_phase_##name(double& seconds, const std::function<void()>& work) { \
    Time(seconds, work);                                                                                           \
  }
BENCH_CHAIN_PHASE(connect)
BENCH_CHAIN_PHASE(flush)
BENCH_CHAIN_PHASE(write)
BENCH_CHAIN_PHASE(read)
BENCH_CHAIN_PHASE(final_flush)

namespace {

struct Phases {
  double connect = 0, flush = 0, write = 0, read = 0, final_flush = 0;
};

void Check(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error(what);
}

void RunOnce(const Config& c, unsigned run) {
  const std::string root = c.dir + "/chain";
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root + "/blocks");
  seam::CoinsStore::Options store_options;
  store_options.path = root + "/chainstate";
  store_options.batch_size = c.dbbatch_mib << 20;
  store_options.new_obfuscation_key = seam::Obfuscation::KeyBytes{0x31, 0x4a, 0x9e, 0x02, 0xc7, 0x5b, 0x88, 0x16};
  seam::CoinsStore store(store_options);
  seam::CoinsViewCache cache(&store);
  seam::BlockStore blocks(seam::BlockStore::Options{.dir = root + "/blocks",
                                                    .magic = {0xf9, 0xbe, 0xb4, 0xd9},
                                                    .key = {0x5d, 0x13, 0xa7, 0x60, 0x2e, 0xc1, 0x94, 0x0b},
                                                    .node_files = true});
  bench::SyntheticChain chain(c.seed, c.txs);
  Phases t;
  size_t inputs = 0, outputs = 0, flushes = 0, syncs = 0, block_bytes = 0, undo_bytes = 0;
  const bool reset = bench::ResetPeakRss();
  for (size_t b = 0; b < c.blocks; ++b) {
    bench::SyntheticChain::NextBlock next = chain.Next();
    const std::string at = "block " + std::to_string(next.height);
    inputs += next.inputs;
    outputs += next.outputs;
    std::vector<uint8_t> undo;
    bench_chain_phase_connect(t.connect, [&] {
      seam::CoinsViewOverlay view(&cache, static_cast<int>(c.workers));
      const seam::HashedBlock hashed(next.block);
      view.StartFetching(hashed);
      WriteCompactSize(undo, next.block.vtx.size() - 1);
      for (const Transaction& tx : next.block.vtx) {
        if (!tx.IsCoinBase()) {
          WriteCompactSize(undo, tx.vin.size());
          for (const TxIn& in : tx.vin) {
            Coin spent;
            Check(view.SpendCoin(in.prevout, &spent), at + ": an input's coin is missing");
            AppendUndoCoin(undo, spent);
          }
        }
        seam::AddCoins(view, seam::HashedTransaction(tx), next.height, /*check_for_overwrite=*/false);
      }
      view.SetBestBlock(next.hash);
      view.Flush();
    });
    bench_chain_phase_flush(t.flush, [&] {
      if (cache.DynamicMemoryUsage() > (c.dbcache_mib << 20)) {
        cache.Flush();
        ++flushes;
      } else if (next.height % c.sync_every == 0 && b + 1 < c.blocks) {  // the last block's is the final flush
        cache.Sync();
        ++syncs;
      }
    });
    std::vector<uint8_t> bytes;
    SerializeBlock(bytes, next.block);
    FilePos block_pos, undo_pos;
    bench_chain_phase_write(t.write, [&] {
      block_pos = blocks.WriteBlock(bytes, next.height);
      Check(!block_pos.IsNull(), at + ": WriteBlock failed");
      undo_pos = blocks.WriteBlockUndo(undo, next.prev, block_pos, next.height);
      Check(!undo_pos.IsNull(), at + ": WriteBlockUndo failed");
    });
    block_bytes += bytes.size();
    undo_bytes += undo.size();
    bench_chain_phase_read(t.read, [&] {
      Check(blocks.ReadBlock(block_pos) == bytes, at + ": ReadBlock gave other bytes than were written");
      Check(blocks.ReadBlockUndo(undo_pos, next.prev) == undo, at + ": ReadBlockUndo gave other bytes");
    });
  }
  bench_chain_phase_final_flush(t.final_flush, [&] { cache.Flush(); });
  const double total = t.connect + t.flush + t.write + t.read + t.final_flush;
  std::printf("%u,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%zu,%zu,%zu,%zu,%zu,%.1f,%d\n", run,
              c.blocks, c.txs, c.dbcache_mib, c.dbbatch_mib, c.sync_every, c.workers, inputs, outputs, t.connect,
              t.flush, t.write, t.read, t.final_flush, total, flushes, syncs, block_bytes, undo_bytes,
              bench::DirectoryBytes(store_options.path), bench::StatusKiB("VmHWM") / 1024.0, reset ? 1 : 0);
}

}  // namespace

int main(int argc, char** argv) {
  const Config c = Parse(argc, argv);
  std::filesystem::create_directories(c.dir);
  std::printf(
      "run,blocks,txs,dbcache_mib,dbbatch_mib,sync_every,workers,inputs,outputs,connect_s,flush_s,write_s,read_s,final_flush_s,total_s,flushes,syncs,"
      "block_bytes,undo_bytes,chainstate_bytes,peak_rss_mib,peak_reset\n");
  for (unsigned run = 1; run <= c.runs; ++run) {
    const std::string what = "bench_chain: run " + std::to_string(run);
    if (!bench::RunInChild(what, [&] { RunOnce(c, run); })) {
      std::fprintf(stderr, "%s failed\n", what.c_str());
      return 1;
    }
  }
  std::filesystem::remove_all(c.dir + "/chain");
  return 0;
}
