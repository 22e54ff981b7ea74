// A small seeded generator for property tests and for deriving bulk data from fuzz-chosen seeds.
// SplitMix64: the same sequence with every compiler and standard library (std:: distributions differ
// between libstdc++ and libc++, which would make a printed seed useless elsewhere).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace harness {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) for n >= 1 (the modulo bias is irrelevant at test sizes).
  uint64_t Below(uint64_t n) { return Next() % n; }
  // Uniform in [lo, hi].
  uint64_t Range(uint64_t lo, uint64_t hi) { return lo + Below(hi - lo + 1); }
  bool Chance(unsigned percent) { return Below(100) < percent; }

 private:
  uint64_t state_;
};

// The seed for a randomized test: the SEED environment variable if set (decimal or 0x-hex), else `fallback`,
// so a default run is reproducible and SEED=... explores or replays another run.
// A malformed SEED is an error, not a silent zero.
inline uint64_t TestSeed(uint64_t fallback) {
  const char* env = std::getenv("SEED");
  if (env == nullptr || *env == '\0') return fallback;
  char* end = nullptr;
  const uint64_t seed = std::strtoull(env, &end, 0);
  if (*end != '\0')
    throw std::invalid_argument("SEED must be a decimal or 0x-hex number, got '" + std::string(env) + "'");
  return seed;
}

}  // namespace harness
