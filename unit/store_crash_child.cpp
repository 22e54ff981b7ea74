// A process that dies in the middle of a flush, for the coins store's crash test:
//
//   store_crash_child DIR K
//
// opens the on-disk store in DIR (which holds store_fixture's old state), sets a 1-byte batch limit so that
// every entry is its own batch, and runs the fixture's flush to block B; right after the K-th partial batch
// is written it ends the process with _exit(0): no destructors, no LevelDB close, no flush of anything
// still buffered in this process. Exits 3 if the flush completes first, 2 on a usage or store error.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "store_fixture.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s DIR K\n", argv[0]);
    return 2;
  }
  try {
    seam::CoinsStore::Options options;
    options.path = argv[1];
    options.batch_size = 1;
    seam::CoinsStore store(options);
    const unsigned long k = std::stoul(argv[2]);
    store.after_partial_write = [k](size_t n) {
      if (n == k) _exit(0);
    };
    store_fixture::Flush(store, store_fixture::FlushToB(), store_fixture::BlockB());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "store_crash_child: %s\n", e.what());
    return 2;
  }
  return 3;
}
