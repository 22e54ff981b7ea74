#include "coins_store_model.h"

#include <secp256k1.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string>

#include "check.h"
#include "obfuscation_ref.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // reference code: the store under test is compiled out of line
namespace {

void AppendBytes(std::string& out, const uint8_t* p, size_t n) { out.append(reinterpret_cast<const char*>(p), n); }

// Length of a LevelDB varint32 (LEB128): 7 bits per byte.
size_t LebLength(size_t n) {
  size_t len = 1;
  for (; n >= 128; n >>= 7) ++len;
  return len;
}

// A byte template: -1 matches any byte.
bool Matches(const Script& s, std::initializer_list<int> pattern) {
  if (s.size() != pattern.size()) return false;
  size_t i = 0;
  for (const int want : pattern) {
    if (want >= 0 && s[static_cast<uint32_t>(i)] != want) return false;
    ++i;
  }
  return true;
}

// The uncompressed key (65 bytes, 0x04 ‖ x ‖ y) of the point with x coordinate `x` (32 bytes) and y of
// parity `odd`; nullopt if there is none (x not below the field prime, or x³ + 7 not a square).
std::optional<std::string> RecoverKey(const std::string& compressed) {
  secp256k1_pubkey point;
  if (!secp256k1_ec_pubkey_parse(secp256k1_context_static, &point,
                                 reinterpret_cast<const unsigned char*>(compressed.data()), compressed.size())) {
    return std::nullopt;
  }
  std::string key(65, '\0');
  size_t size = key.size();
  secp256k1_ec_pubkey_serialize(secp256k1_context_static, reinterpret_cast<unsigned char*>(key.data()), &size, &point,
                                SECP256K1_EC_UNCOMPRESSED);
  return key;
}

// RecoverKey, remembered: the testers' scripts come from a small table, and the curve arithmetic was an eighth
// of coins_db_flush's instructions. A pure function's answers, so no input sees another's state.
std::optional<std::string> RefRecoverKey(uint8_t odd, const std::string& x) {
  thread_local std::map<std::string, std::optional<std::string>> known;
  std::string compressed = std::string(1, static_cast<char>(2 + odd)) + x;
  if (const auto it = known.find(compressed); it != known.end()) return it->second;
  if (known.size() >= 1024) known.clear();  // bounded, whatever scripts a caller brings
  std::optional<std::string> key = RecoverKey(compressed);
  known.emplace(std::move(compressed), key);
  return key;
}

}  // namespace

// A k-byte VARINT encodes the values from offset(k) = 128 + 128^2 + ... + 128^(k-1) up to offset(k+1) - 1,
// as n - offset(k) in k big-endian base-128 digits with the high bit set on all but the last.
std::string RefVarInt(uint64_t n) {
  unsigned __int128 offset = 0, span = 128;
  size_t k = 1;
  while (n >= offset + span) {
    offset += span;
    span *= 128;
    ++k;
  }
  unsigned __int128 rest = n - offset;
  std::string digits(k, '\0');
  for (size_t i = k; i-- > 0;) {
    digits[i] = static_cast<char>((rest & 0x7f) | (i + 1 < k ? 0x80 : 0));
    rest >>= 7;
  }
  return digits;
}

// Written through the decimal digits: up to nine trailing zeros become the exponent e; with e < 9 the last
// remaining digit d (1..9) is folded in as 1 + 10 (9 m + d - 1) + e, where m is the number above it.
uint64_t RefCompressAmount(uint64_t amount) {
  if (amount == 0) return 0;
  std::string digits = std::to_string(amount);
  uint64_t e = 0;
  while (e < 9 && digits.back() == '0') {
    digits.pop_back();
    ++e;
  }
  if (e == 9) return 1 + 10 * (std::stoull(digits) - 1) + 9;
  const uint64_t d = static_cast<uint64_t>(digits.back() - '0');
  digits.pop_back();
  const uint64_t m = digits.empty() ? 0 : std::stoull(digits);
  return 1 + 10 * (9 * m + d - 1) + e;
}

std::string RefCoinKey(const OutPoint& outpoint) {
  std::string key;
  key.reserve(1 + 32 + 5);  // one allocation: a 32-bit index's VARINT is at most 5 bytes
  key += 'C';
  AppendBytes(key, outpoint.txid.bytes.data(), 32);
  key += RefVarInt(outpoint.n);
  return key;
}

namespace {

// P2PK with an uncompressed key: 65 ‖ 04 ‖ x ‖ y ‖ OP_CHECKSIG. The key is taken as valid when the
// point libsecp256k1 recovers from x and the parity of y, written out uncompressed, is the key itself: that
// holds exactly when x and y are field elements and the point is on the curve (Core's IsFullyValid).
std::optional<std::string> RefUncompressedKeyX(const Script& s) {
  if (s.size() != 67 || s[0] != 65 || s[1] != 0x04 || s[66] != 0xac) return std::nullopt;
  const std::string key(s.begin() + 1, s.begin() + 66);
  const std::string x = key.substr(1, 32);
  const uint8_t parity = static_cast<uint8_t>(key.back()) & 1;
  const std::optional<std::string> recovered = RefRecoverKey(parity, x);
  if (recovered != key) return std::nullopt;
  return x;
}

}  // namespace

std::string RefCompressScript(const Script& s) {
  constexpr int _ = -1;  // any byte (the 20-byte hashes)
  std::string out;
  if (Matches(s, {0x76, 0xa9, 20, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, 0x88, 0xac})) {
    out += '\x00';  // P2PKH: its 20-byte hash
    AppendBytes(out, s.data() + 3, 20);
  } else if (Matches(s, {0xa9, 20, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, 0x87})) {
    out += '\x01';  // P2SH: its 20-byte hash
    AppendBytes(out, s.data() + 2, 20);
  } else if (s.size() == 35 && s[0] == 33 && s[34] == 0xac && (s[1] == 2 || s[1] == 3)) {
    AppendBytes(out, s.data() + 1, 33);  // P2PK, compressed key: the key itself, whose first byte is 2 or 3
  } else if (const auto x = RefUncompressedKeyX(s)) {
    out += static_cast<char>(s[65] % 2 == 0 ? 4 : 5);  // P2PK, uncompressed key: 4 (y even) or 5 (y odd), x
    out += *x;
  } else {
    out += RefVarInt(s.size() + 6);
    AppendBytes(out, s.data(), s.size());
  }
  return out;
}

std::string RefCoinValue(const Coin& coin) {
  std::string out = RefVarInt(uint64_t{coin.height} * 2 + (coin.coinbase ? 1 : 0));
  out += RefVarInt(RefCompressAmount(static_cast<uint64_t>(coin.amount)));
  return out + RefCompressScript(coin.script);
}

// A k-byte VARINT is offset(k) plus its k base-128 digits (see RefVarInt); 2^64 - 1 takes 10 bytes.
std::optional<uint64_t> RefReadVarInt(std::string_view& in) {
  unsigned __int128 offset = 0, span = 128, digits = 0;
  for (size_t k = 1; k <= 10 && k <= in.size(); ++k) {
    const uint8_t b = static_cast<uint8_t>(in[k - 1]);
    digits = digits * 128 + (b & 0x7f);
    if (b < 0x80) {
      const unsigned __int128 n = offset + digits;
      if (n > std::numeric_limits<uint64_t>::max()) return std::nullopt;
      in.remove_prefix(k);
      return static_cast<uint64_t>(n);
    }
    offset += span;
    span *= 128;
  }
  return std::nullopt;  // truncated, or longer than any 64-bit value
}

// 0, or 1 + 10 (9 m + d - 1) + e with e < 9 for m ‖ d followed by e zeros, or 1 + 10 (m - 1) + 9 for m
// followed by nine zeros: worked out in 128 bits, where no x < 2^64 overflows.
std::optional<uint64_t> RefDecompressAmount(uint64_t x) {
  if (x == 0) return 0;
  const uint64_t e = (x - 1) % 10, q = (x - 1) / 10;
  using Wide = unsigned __int128;
  Wide n = e == 9 ? Wide{q} + 1 : Wide{q / 9} * 10 + q % 9 + 1;
  for (uint64_t i = 0; i < e; ++i) n *= 10;
  if (n > std::numeric_limits<uint64_t>::max()) return std::nullopt;
  return static_cast<uint64_t>(n);
}

std::optional<Script> RefReadScript(std::string_view& in) {
  const auto id = RefReadVarInt(in);
  if (!id) return std::nullopt;
  auto take = [&in](size_t n) -> std::optional<std::string> {
    if (in.size() < n) return std::nullopt;
    std::string out(in.substr(0, n));
    in.remove_prefix(n);
    return out;
  };
  auto script = [](const std::string& bytes) {
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    return Script(p, p + bytes.size());
  };
  if (*id < 6) {
    const auto body = take(*id < 2 ? 20 : 32);
    if (!body) return std::nullopt;
    switch (*id) {
      case 0: return script("\x76\xa9\x14" + *body + "\x88\xac");
      case 1: return script("\xa9\x14" + *body + "\x87");
      case 2:
      case 3: return script("\x21" + std::string(1, static_cast<char>(*id)) + *body + "\xac");
      default: {
        const auto key = RefRecoverKey(static_cast<uint8_t>(*id - 4), *body);
        return key ? script("\x41" + *key + "\xac") : Script();  // off the curve: empty, as Core
      }
    }
  }
  const uint64_t size = *id - 6;
  if (size > in.size()) return std::nullopt;
  const auto bytes = take(static_cast<size_t>(size));
  return size > 10'000 ? Script(1, 0x6a) : script(*bytes);  // too long to spend: one OP_RETURN
}

std::optional<Coin> RefDecodeCoin(std::string_view value) {
  const auto code = RefReadVarInt(value);
  const auto compressed = code ? RefReadVarInt(value) : std::nullopt;
  const auto amount = compressed ? RefDecompressAmount(*compressed) : std::nullopt;
  constexpr uint64_t kMoneySupply = 21'000'000 * uint64_t{100'000'000};  // no stored amount exceeds it
  if (!amount || *code > 0xffffffff || *amount > kMoneySupply) return std::nullopt;
  auto script = RefReadScript(value);
  if (!script || !value.empty()) return std::nullopt;
  return Coin(static_cast<int64_t>(*amount), std::move(*script), static_cast<uint32_t>(*code / 2), *code % 2 == 1);
}

std::string RefHeadBlocks(const Hash256& new_tip, const Hash256& old_tip) {
  return std::string(1, '\x02') + RefHash(new_tip) + RefHash(old_tip);
}

KvMap DecodeRaw(KvMap raw, const std::array<uint8_t, 8>& key) {
  raw.erase(std::string("\x0e\x00obfuscate_key", 15));
  for (auto& [unused, value] : raw) XorRef(std::span(reinterpret_cast<uint8_t*>(value.data()), value.size()), key, 0);
  return raw;
}

namespace {

// Sets `key` to `value` (nullopt: erases it); returns what it held, moved out rather than copied.
std::optional<std::string> Exchange(KvMap& state, const std::string& key, std::optional<std::string> value) {
  const auto it = state.find(key);
  if (it == state.end()) {
    if (value) state.emplace(key, std::move(*value));
    return std::nullopt;
  }
  std::optional<std::string> old = std::move(it->second);
  if (value) {
    it->second = std::move(*value);
  } else {
    state.erase(it);
  }
  return old;
}

}  // namespace

KvMap FlushPlan::Complete(const KvMap& before) const {
  KvMap state = before;
  Apply(state);
  return state;
}

// The writes' keys are coin keys, never 'B' or 'H': the order of the three kinds of change does not matter.
FlushUndo FlushPlan::Apply(KvMap& state) const {
  FlushUndo undo;
  undo.best = Exchange(state, "B", RefHash(new_tip));
  undo.head = Exchange(state, "H", std::nullopt);
  undo.values.reserve(writes.size());
  for (const KvWrite& w : writes) undo.values.push_back(Exchange(state, w.key, w.value));
  return undo;
}

void FlushPlan::Revert(KvMap& state, const FlushUndo& undo) const {
  for (size_t i = writes.size(); i-- > 0;) Exchange(state, writes[i].key, undo.values[i]);
  Exchange(state, "H", undo.head);
  Exchange(state, "B", undo.best);
}

KvMap FlushPlan::MidFlush(const KvMap& before, size_t prefix) const {
  KvMap state = before;
  state.erase("B");
  state["H"] = RefHeadBlocks(new_tip, old_tip);
  for (size_t i = 0; i < prefix; ++i) {
    if (writes[i].value) {
      state[writes[i].key] = *writes[i].value;
    } else {
      state.erase(writes[i].key);
    }
  }
  return state;
}

bool FlushPlan::IsLegalMidFlush(const KvMap& before, const KvMap& state, bool any_order) const {
  // Outside the written keys the state must be MidFlush(before, 0); each written key must hold its new
  // value up to some point and its old one after it.
  KvMap expected_rest = MidFlush(before, 0);
  KvMap rest = state;
  for (const KvWrite& w : writes) {
    expected_rest.erase(w.key);
    rest.erase(w.key);
  }
  if (rest != expected_rest) return false;
  auto value_in = [](const KvMap& m, const std::string& key) -> std::optional<std::string> {
    const auto it = m.find(key);
    return it == m.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  bool past_prefix = false;
  for (const KvWrite& w : writes) {
    const auto now = value_in(state, w.key);
    const bool applied = now == w.value;
    const bool untouched = now == value_in(before, w.key);
    if (!applied && !untouched) return false;
    if (past_prefix && !untouched && !any_order) return false;
    if (!applied) past_prefix = true;
  }
  return true;
}

std::vector<size_t> FlushPlan::PartialBatchEnds(size_t batch_limit) const {
  auto put = [](const std::string& key, size_t value_size) {
    return 1 + LebLength(key.size()) + key.size() + LebLength(value_size) + value_size;
  };
  auto del = [](const std::string& key) { return 1 + LebLength(key.size()) + key.size(); };
  constexpr size_t kHeader = 12;  // sequence number and count
  std::vector<size_t> ends;
  size_t size = kHeader + del("B") + put("H", RefHeadBlocks(new_tip, old_tip).size());
  for (size_t i = 0; i < writes.size(); ++i) {
    size += writes[i].value ? put(writes[i].key, writes[i].value->size()) : del(writes[i].key);
    if (size > batch_limit) {
      ends.push_back(i + 1);
      size = kHeader;
    }
  }
  return ends;
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
