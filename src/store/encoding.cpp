#include "store/encoding.h"

#include <secp256k1.h>

#include <algorithm>
#include <limits>

namespace embedded {

namespace {

// Script opcodes the compressed forms stand for.
constexpr uint8_t kOpDup = 0x76;
constexpr uint8_t kOpHash160 = 0xa9;
constexpr uint8_t kOpEqualVerify = 0x88;
constexpr uint8_t kOpEqual = 0x87;
constexpr uint8_t kOpCheckSig = 0xac;
// Compressed forms 0..5 (Core's nSpecialScripts): a plain script's length is stored plus this.
constexpr uint64_t kSpecialScripts = 6;

bool IsP2pkh(const Script& s) {
  return s.size() == 25 && s[0] == kOpDup && s[1] == kOpHash160 && s[2] == 20 && s[23] == kOpEqualVerify &&
         s[24] == kOpCheckSig;
}
bool IsP2sh(const Script& s) { return s.size() == 23 && s[0] == kOpHash160 && s[1] == 20 && s[22] == kOpEqual; }
bool IsCompressedP2pk(const Script& s) {
  return s.size() == 35 && s[0] == 33 && s[34] == kOpCheckSig && (s[1] == 0x02 || s[1] == 0x03);
}
// Core's condition (IsToPubKey): a push of 65 bytes starting 0x04, then OP_CHECKSIG, and the key fully valid
// — x and y below the field prime and y² = x³ + 7 — which is what libsecp256k1's parser accepts. Only then
// is y the root of that parity, so that the 33-byte form gives the script back. The prefix test comes
// first: the parser also accepts hybrid keys (0x06/0x07), which Core stores whole.
bool IsUncompressedP2pk(const Script& s) {
  if (s.size() != 67 || s[0] != 65 || s[66] != kOpCheckSig || s[1] != 0x04) return false;
  secp256k1_pubkey point;
  return secp256k1_ec_pubkey_parse(secp256k1_context_static, &point, s.data() + 1, 65) == 1;
}

void Append(std::string& out, const uint8_t* p, size_t n) { out.append(reinterpret_cast<const char*>(p), n); }

}  // namespace

uint8_t RecordReader::Byte() { return Bytes(1)[0]; }

std::span<const uint8_t> RecordReader::Bytes(size_t n) {
  if (n > remaining()) {
    throw StoreCorruption("record truncated: " + std::to_string(n) + " bytes wanted, " + std::to_string(remaining()) +
                          " left");
  }
  const auto out = data_.subspan(pos_, n);
  pos_ += n;
  return out;
}

uint64_t RecordReader::VarInt() {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  uint64_t n = 0;
  while (true) {
    const uint8_t b = Byte();
    if (n > (kMax >> 7)) throw StoreCorruption("varint larger than 64 bits");
    n = (n << 7) | (b & 0x7f);
    if (!(b & 0x80)) return n;
    if (n == kMax) throw StoreCorruption("varint larger than 64 bits");
    ++n;
  }
}

void RecordReader::ExpectEnd(const char* what) const {
  if (remaining() != 0)
    throw StoreCorruption(std::string(what) + ": " + std::to_string(remaining()) + " trailing bytes");
}

void WriteVarInt(std::string& out, uint64_t n) {
  uint8_t groups[10];  // ceil(64 / 7)
  size_t len = 0;
  while (true) {
    groups[len] = static_cast<uint8_t>((n & 0x7f) | (len > 0 ? 0x80 : 0));
    if (n <= 0x7f) break;
    n = (n >> 7) - 1;
    ++len;
  }
  for (size_t i = len + 1; i-- > 0;) out.push_back(static_cast<char>(groups[i]));
}

uint64_t CompressAmount(uint64_t n) {
  if (n == 0) return 0;
  uint64_t e = 0;
  while (n % 10 == 0 && e < 9) {
    n /= 10;
    ++e;
  }
  if (e < 9) {
    const uint64_t d = n % 10;  // 1..9: the trailing zeros are gone
    n /= 10;
    return 1 + (n * 9 + d - 1) * 10 + e;
  }
  return 1 + (n - 1) * 10 + 9;
}

uint64_t DecompressAmount(uint64_t x) {
  if (x == 0) return 0;
  --x;
  uint64_t e = x % 10;
  x /= 10;
  uint64_t n;
  if (e < 9) {
    const uint64_t d = x % 9 + 1;
    n = x / 9 * 10 + d;
  } else {
    n = x + 1;
  }
  // Unsigned: a corrupt x may wrap here, which DecodeCoin detects by compressing the result again.
  for (; e > 0; --e) n *= 10;
  return n;
}

void CompressScript(std::string& out, const Script& s) {
  if (IsP2pkh(s)) {
    out.push_back(0x00);
    Append(out, s.data() + 3, 20);
  } else if (IsP2sh(s)) {
    out.push_back(0x01);
    Append(out, s.data() + 2, 20);
  } else if (IsCompressedP2pk(s)) {
    out.push_back(static_cast<char>(s[1]));
    Append(out, s.data() + 2, 32);
  } else if (IsUncompressedP2pk(s)) {
    out.push_back(static_cast<char>(0x04 | (s[65] & 1)));  // the parity of y (its last byte) in the id
    Append(out, s.data() + 2, 32);
  } else {
    WriteVarInt(out, s.size() + kSpecialScripts);
    Append(out, s.data(), s.size());
  }
}

Script DecompressScript(RecordReader& in) {
  const uint64_t form = in.VarInt();
  auto assemble = [](std::initializer_list<uint8_t> head, std::span<const uint8_t> body,
                     std::initializer_list<uint8_t> tail) {
    Script s(head.begin(), head.end());
    s.insert(s.end(), body.begin(), body.end());
    s.insert(s.end(), tail.begin(), tail.end());
    return s;
  };
  switch (form) {
    case 0x00: return assemble({kOpDup, kOpHash160, 20}, in.Bytes(20), {kOpEqualVerify, kOpCheckSig});
    case 0x01: return assemble({kOpHash160, 20}, in.Bytes(20), {kOpEqual});
    case 0x02:
    case 0x03: return assemble({33, static_cast<uint8_t>(form)}, in.Bytes(32), {kOpCheckSig});
    case 0x04:
    case 0x05: {
      // The compressed key with the same x and parity (0x02 even, 0x03 odd), written out uncompressed.
      uint8_t key[65];
      key[0] = static_cast<uint8_t>(form - 2);
      const auto x = in.Bytes(32);
      std::copy(x.begin(), x.end(), key + 1);
      secp256k1_pubkey point;
      // An x that is not on the curve (or not below the prime): as Core, whose ScriptCompression ignores the
      // failure and leaves the coin's script as it was, empty. The 32 bytes are consumed all the same.
      if (!secp256k1_ec_pubkey_parse(secp256k1_context_static, &point, key, 33)) return Script();
      size_t len = sizeof(key);
      secp256k1_ec_pubkey_serialize(secp256k1_context_static, key, &len, &point, SECP256K1_EC_UNCOMPRESSED);
      return assemble({65}, std::span<const uint8_t>(key, len), {kOpCheckSig});
    }
    default: break;
  }
  const uint64_t size = form - kSpecialScripts;
  if (size > in.remaining()) throw StoreCorruption("script length " + std::to_string(size) + " past the record's end");
  const auto bytes = in.Bytes(static_cast<size_t>(size));
  // As Core: an overlong script is unspendable anyway, so it is kept as a one-byte OP_RETURN.
  if (size > kMaxScriptSize) return Script(1, kOpReturn);
  return Script(bytes.begin(), bytes.end());
}

std::string CoinKey(const OutPoint& outpoint) {
  std::string key(1, kCoinPrefix);
  Append(key, outpoint.txid.bytes.data(), outpoint.txid.bytes.size());
  WriteVarInt(key, outpoint.n);
  return key;
}

OutPoint DecodeCoinKey(std::span<const uint8_t> key) {
  RecordReader in(key);
  if (in.Byte() != static_cast<uint8_t>(kCoinPrefix)) throw StoreCorruption("not a coin key");
  OutPoint out;
  const auto txid = in.Bytes(out.txid.bytes.size());
  std::copy(txid.begin(), txid.end(), out.txid.bytes.begin());
  const uint64_t n = in.VarInt();
  if (n > std::numeric_limits<uint32_t>::max()) throw StoreCorruption("coin key index above 2^32 - 1");
  out.n = static_cast<uint32_t>(n);
  in.ExpectEnd("coin key");
  return out;
}

std::string EncodeCoin(const Coin& coin) {
  if (coin.IsSpent() || coin.amount < 0 || coin.amount > kMaxMoney || coin.height > 0x7fffffff) {
    throw std::logic_error("EncodeCoin: not a storable coin: " + coin.ToString());
  }
  std::string out;
  WriteVarInt(out, uint64_t{coin.height} * 2 + (coin.coinbase ? 1 : 0));
  WriteVarInt(out, CompressAmount(static_cast<uint64_t>(coin.amount)));
  CompressScript(out, coin.script);
  return out;
}

Coin DecodeCoin(std::span<const uint8_t> value) {
  RecordReader in(value);
  const uint64_t code = in.VarInt();
  // Core reads the code as a 32-bit integer: larger values are not records it wrote.
  if (code > std::numeric_limits<uint32_t>::max()) throw StoreCorruption("coin height code above 2^32 - 1");
  const uint64_t compressed = in.VarInt();
  const uint64_t amount = DecompressAmount(compressed);
  if (CompressAmount(amount) != compressed || amount > static_cast<uint64_t>(kMaxMoney)) {
    throw StoreCorruption("coin amount out of range (compressed " + std::to_string(compressed) + ")");
  }
  Script script = DecompressScript(in);
  in.ExpectEnd("coin record");
  return Coin(static_cast<int64_t>(amount), std::move(script), static_cast<uint32_t>(code >> 1), (code & 1) != 0);
}

std::string EncodeHeadBlocks(const Hash256& new_tip, const Hash256& old_tip) {
  std::string out(1, 2);  // CompactSize(2)
  Append(out, new_tip.bytes.data(), new_tip.bytes.size());
  Append(out, old_tip.bytes.data(), old_tip.bytes.size());
  return out;
}

std::pair<Hash256, Hash256> DecodeHeadBlocks(std::span<const uint8_t> value) {
  RecordReader in(value);
  if (in.Byte() != 2) throw StoreCorruption("head blocks: not a list of two hashes");
  std::pair<Hash256, Hash256> out;
  for (Hash256* h : {&out.first, &out.second}) {
    const auto bytes = in.Bytes(h->bytes.size());
    std::copy(bytes.begin(), bytes.end(), h->bytes.begin());
  }
  in.ExpectEnd("head blocks");
  return out;
}

}  // namespace embedded
