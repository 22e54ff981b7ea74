#include "alloc_count.h"

#include <atomic>
#include <cstddef>

namespace {
std::atomic<uint64_t> g_calls{0};
}  // namespace

extern "C" {
void* __real_malloc(size_t size);
void* __real_realloc(void* ptr, size_t size);

void* __wrap_malloc(size_t size) {
  g_calls.fetch_add(1, std::memory_order_relaxed);
  return __real_malloc(size);
}

void* __wrap_realloc(void* ptr, size_t size) {
  g_calls.fetch_add(1, std::memory_order_relaxed);
  return __real_realloc(ptr, size);
}
}

namespace bench {

uint64_t MallocCalls() { return g_calls.load(std::memory_order_relaxed); }

}  // namespace bench
