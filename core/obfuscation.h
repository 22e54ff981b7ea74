// Bitcoin Core side of seam/obfuscation.h: the embedded Obfuscation's interface over Core's Obfuscation
// (util/obfuscation.h). Core's class lives behind a pointer so harness code never includes Core's headers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

class Obfuscation;  // Bitcoin Core's

namespace core_adapter {

class Obfuscation {
 public:
  static constexpr size_t kKeySize = 8;
  using KeyBytes = std::array<uint8_t, kKeySize>;

  Obfuscation();
  explicit Obfuscation(const KeyBytes& key);
  Obfuscation(const Obfuscation& other);
  Obfuscation& operator=(const Obfuscation& other);
  ~Obfuscation();

  explicit operator bool() const;
  // The key this object was built from (Core does not hand its key back; the adapter remembers it).
  KeyBytes key() const { return key_; }
  // Core's HexKey().
  std::string ToString() const;
  void operator()(std::span<uint8_t> data, uint64_t offset) const;

  // For the other adapters (core/*.cpp): the Core object itself.
  const ::Obfuscation& core() const { return *core_; }

 private:
  KeyBytes key_{};
  std::unique_ptr<::Obfuscation> core_;
};

}  // namespace core_adapter
