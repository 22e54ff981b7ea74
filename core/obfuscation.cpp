#include "core/obfuscation.h"

#include <cstring>  // before util/obfuscation.h, which uses std::memcpy without including it (master of 2026-08)

#include <util/obfuscation.h>

namespace core_adapter {

Obfuscation::Obfuscation() : Obfuscation(KeyBytes{}) {}

Obfuscation::Obfuscation(const KeyBytes& key)
    : key_(key), core_(std::make_unique<::Obfuscation>(std::as_bytes(std::span<const uint8_t, kKeySize>(key_)))) {}

Obfuscation::Obfuscation(const Obfuscation& other)
    : key_(other.key_), core_(std::make_unique<::Obfuscation>(*other.core_)) {}

Obfuscation& Obfuscation::operator=(const Obfuscation& other) {
  key_ = other.key_;
  *core_ = *other.core_;
  return *this;
}

Obfuscation::~Obfuscation() = default;

Obfuscation::operator bool() const { return bool{*core_}; }

std::string Obfuscation::ToString() const { return core_->HexKey(); }

void Obfuscation::operator()(std::span<uint8_t> data, uint64_t offset) const {
  (*core_)(std::as_writable_bytes(data), offset);
}

}  // namespace core_adapter
