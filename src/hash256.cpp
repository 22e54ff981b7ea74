#include "hash256.h"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

namespace embedded {

namespace {

// libcrypto calls return 1 (or a non-null pointer) on success.
void Require(bool ok) {
  if (!ok) throw std::runtime_error("SHA-256 failed in libcrypto");
}

const EVP_MD* Sha256() {
  // Fetched once: an implicit fetch on every digest costs more than hashing a small record.
  static const EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  Require(md != nullptr);
  return md;
}

}  // namespace

Hash256 DoubleSha256(std::initializer_list<std::span<const uint8_t>> parts) {
  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  Require(ctx != nullptr);
  Hash256 once;
  Hash256 twice;
  unsigned int n = 0;
  Require(EVP_DigestInit_ex(ctx.get(), Sha256(), nullptr) == 1);
  for (const std::span<const uint8_t> part : parts) Require(EVP_DigestUpdate(ctx.get(), part.data(), part.size()) == 1);
  Require(EVP_DigestFinal_ex(ctx.get(), once.bytes.data(), &n) == 1);
  Require(EVP_DigestInit_ex(ctx.get(), Sha256(), nullptr) == 1);
  Require(EVP_DigestUpdate(ctx.get(), once.bytes.data(), once.bytes.size()) == 1);
  Require(EVP_DigestFinal_ex(ctx.get(), twice.bytes.data(), &n) == 1);
  return twice;
}

}  // namespace embedded
