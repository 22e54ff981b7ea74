#include "error_catcher.h"

#include <cstdlib>
#include <iostream>
#include <stdexcept>

namespace embedded {

template <typename Read>
auto CoinsViewErrorCatcher::Guarded(Read read) const -> decltype(read()) {
  try {
    return read();
  } catch (const std::runtime_error& e) {
    for (const auto& callback : callbacks_) callback();
    std::cerr << "CoinsViewErrorCatcher: error reading the coins store: " << e.what() << "\n";
    std::abort();
  }
}

std::optional<Coin> CoinsViewErrorCatcher::GetCoin(const OutPoint& outpoint) {
  return Guarded([&] { return parent_.GetCoin(outpoint); });
}

std::optional<Coin> CoinsViewErrorCatcher::PeekCoin(const OutPoint& outpoint) const {
  return Guarded([&] { return parent_.PeekCoin(outpoint); });
}

bool CoinsViewErrorCatcher::HaveCoin(const OutPoint& outpoint) {
  return Guarded([&] { return parent_.HaveCoin(outpoint); });
}

}  // namespace embedded
