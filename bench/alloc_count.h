// Counts the heap allocations made by the benchmarks' own code. bench_micro links with
// -Wl,--wrap=malloc,--wrap=realloc, so every malloc or realloc call compiled into the suite's objects
// (prevector's heap blocks among them) goes through the counters below; allocations inside shared
// libraries (libstdc++'s operator new, Google Benchmark) are not counted.
#pragma once

#include <cstdint>

namespace bench {

uint64_t MallocCalls();

}  // namespace bench
