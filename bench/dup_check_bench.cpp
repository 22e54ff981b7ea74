// The transaction check with the specialised duplicate-input check (src/tx/check.h: one input, two inputs,
// a sorted vector for more) against the same check with a std::set of prevouts and a linear null scan, as
// Bitcoin Core checked inputs before the specialisation. Two workloads: one transaction with thousands of
// inputs, and every transaction of a block of typical ones (80% single-input).
#include <benchmark/benchmark.h>

#include <set>

#include "bench_data.h"
#include "tx/check.h"

namespace {

// The benchmarks measure the embedded subject (src/) against simpler baselines.
using namespace embedded;

// CheckTransaction's rules in its order, with the duplicate and null checks written the std::set way.
Reject CheckTransactionWithSet(const Transaction& tx) {
  if (tx.vin.empty()) return Reject::kVinEmpty;
  if (tx.vout.empty()) return Reject::kVoutEmpty;
  if (SerializedSize(tx, /*with_witness=*/false) * kWitnessScaleFactor > kMaxBlockWeight) return Reject::kOversize;
  int64_t total = 0;
  for (const TxOut& txout : tx.vout) {
    if (txout.value < 0) return Reject::kVoutNegative;
    if (txout.value > kMaxMoney) return Reject::kVoutTooLarge;
    total += txout.value;
    if (total > kMaxMoney) return Reject::kTxoutTotalTooLarge;
  }
  std::set<OutPoint> seen;
  for (const TxIn& txin : tx.vin) {
    if (!seen.insert(txin.prevout).second) return Reject::kInputsDuplicate;
  }
  if (tx.IsCoinBase()) {
    const size_t length = tx.vin[0].script_sig.size();
    return length < kMinCoinbaseScriptSig || length > kMaxCoinbaseScriptSig ? Reject::kCbLength : Reject::kNone;
  }
  for (const TxIn& txin : tx.vin) {
    if (IsNullPrevout(txin.prevout)) return Reject::kPrevoutNull;
  }
  return Reject::kNone;
}

constexpr size_t kManyInputs = 3000;
constexpr size_t kBlockTxs = 2500;
constexpr unsigned kSingleInputPercent = 80;

const std::vector<Transaction>& Workload(int64_t which) {
  static const std::vector<Transaction> many_inputs = [] {
    harness::Rng rng(1);
    return std::vector<Transaction>{bench::MakeManyInputTransaction(rng, kManyInputs)};
  }();
  static const std::vector<Transaction> block = [] {
    harness::Rng rng(2);
    return bench::MakeBlock(rng, kBlockTxs, kSingleInputPercent).vtx;
  }();
  return which == 0 ? many_inputs : block;
}

template <Reject (*Check)(const Transaction&)>
void BM_Check(benchmark::State& state) {
  const std::vector<Transaction>& txs = Workload(state.range(0));
  size_t inputs = 0;
  for (const Transaction& tx : txs) {
    // Both versions must accept every transaction, or the comparison would time early exits.
    if (Check(tx) != Reject::kNone || CheckTransactionWithSet(tx) != Reject::kNone) {
      state.SkipWithError("a workload transaction is rejected");
      return;
    }
    inputs += tx.vin.size();
  }
  for (auto _ : state) {
    for (const Transaction& tx : txs) benchmark::DoNotOptimize(Check(tx));
  }
  state.counters["inputs"] = static_cast<double>(inputs);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * inputs));
}

// {workload}: 0 = one transaction of kManyInputs inputs, 1 = a block of kBlockTxs typical transactions.
void CheckArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"workload"})->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
}

}  // namespace

BENCHMARK(BM_Check<CheckTransaction>)->Name("BM_CheckSpecialised")->Apply(CheckArgs);
BENCHMARK(BM_Check<CheckTransactionWithSet>)->Name("BM_CheckStdSet")->Apply(CheckArgs);
