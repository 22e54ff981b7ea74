// Coins store encoding: Bitcoin Core's known answers — VARINTs, amount compression pairs, the six special
// script forms (P2PKH, P2SH, P2PK with compressed and with uncompressed keys), whole coin records of the
// chainstate — each run through the embedded subject's codec and the reference's (harness/coins_store_model.h),
// which must both give exactly these bytes and values; then subject against reference on keys off the
// curve and on damaged records. The values were taken from Bitcoin Core's own tests (serialize, compress
// and coins) and from the curve's definition; the cases are written here.
#include <boost/test/unit_test.hpp>

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "coins_tester.h"
#include "coins_store_model.h"
#include "test_util.h"
#if !SUITE_SUBJECT_CORE
#include "store/encoding.h"
#endif

namespace {

// Hex to bytes, as the string the codecs take.
std::string Unhex(std::string_view hex) {
  const std::vector<uint8_t> bytes = unit::FromHex(hex);
  return std::string(bytes.begin(), bytes.end());
}
std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const char c : bytes) {
    out += kDigits[static_cast<uint8_t>(c) >> 4];
    out += kDigits[static_cast<uint8_t>(c) & 15];
  }
  return out;
}
Script ScriptOf(std::string_view hex) {
  const std::string bytes = Unhex(hex);
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  return Script(p, p + bytes.size());
}
std::string Render(const std::optional<Coin>& c) { return c ? c->ToString() : "error"; }
std::string Render(const std::optional<uint64_t>& n) { return n ? std::to_string(*n) : "error"; }
std::string Render(const std::optional<Script>& s) { return s ? Hex(std::string(s->begin(), s->end())) : "error"; }

// One implementation of the encoding. The readers take a whole value and give nullopt where the decoder
// rejects it, including when bytes are left over.
struct Codec {
  const char* name;
  std::function<std::string(uint64_t)> varint;
  std::function<std::optional<uint64_t>(std::string_view)> read_varint;
  std::function<uint64_t(uint64_t)> compress_amount;
  std::function<std::optional<uint64_t>(uint64_t)> decompress_amount;
  std::function<std::string(const Script&)> compress_script;
  std::function<std::optional<Script>(std::string_view)> read_script;
  std::function<std::string(const Coin&)> encode_coin;
  std::function<std::optional<Coin>(std::string_view)> decode_coin;
};

Codec Reference() {
  auto whole = [](auto read) {
    return [read](std::string_view in) -> decltype(read(in)) {
      auto out = read(in);
      if (!in.empty()) return std::nullopt;
      return out;
    };
  };
  return Codec{
      "reference",
      harness::RefVarInt,
      whole([](std::string_view& in) { return harness::RefReadVarInt(in); }),
      harness::RefCompressAmount,
      harness::RefDecompressAmount,
      harness::RefCompressScript,
      whole([](std::string_view& in) { return harness::RefReadScript(in); }),
      harness::RefCoinValue,
      harness::RefDecodeCoin,
  };
}

#if !SUITE_SUBJECT_CORE
std::span<const uint8_t> Span(std::string_view s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

// The embedded store's functions; StoreCorruption becomes nullopt.
template <typename F>
auto Checked(F read) {
  return [read](std::string_view value) -> std::optional<decltype(read(std::declval<embedded::RecordReader&>()))> {
    try {
      embedded::RecordReader in(Span(value));
      auto out = read(in);
      in.ExpectEnd("value");
      return out;
    } catch (const embedded::StoreCorruption&) {
      return std::nullopt;
    }
  };
}

Codec Subject() {
  return Codec{
      "subject",
      [](uint64_t n) {
        std::string out;
        embedded::WriteVarInt(out, n);
        return out;
      },
      Checked([](embedded::RecordReader& in) { return in.VarInt(); }),
      embedded::CompressAmount,
      [](uint64_t x) -> std::optional<uint64_t> { return embedded::DecompressAmount(x); },
      [](const Script& s) {
        std::string out;
        embedded::CompressScript(out, s);
        return out;
      },
      Checked([](embedded::RecordReader& in) { return embedded::DecompressScript(in); }),
      embedded::EncodeCoin,
      [](std::string_view value) -> std::optional<Coin> {
        try {
          return embedded::DecodeCoin(Span(value));
        } catch (const embedded::StoreCorruption&) {
          return std::nullopt;
        }
      },
  };
}
#endif

// Every codec of this flavor: the reference always; the embedded subject unless the build tests Core.
std::vector<Codec> Codecs() {
#if SUITE_SUBJECT_CORE
  return {Reference()};
#else
  return {Subject(), Reference()};
#endif
}

// The generator point of secp256k1 (y even) and the key of the genesis block's coinbase output (y odd).
constexpr std::string_view kG =
    "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
    "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8";
constexpr std::string_view kGenesisKey =
    "678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb6"
    "49f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5f";
// x coordinates with no point: 0 and 5 (x³ + 7 is not a square), p and 2^256 - 1 (not field elements).
constexpr std::string_view kXOffCurve[] = {
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000005",
    "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
};

std::string P2pkHex(std::string_view key) { return (key.size() == 66 ? "21" : "41") + std::string(key) + "ac"; }

}  // namespace

BOOST_AUTO_TEST_SUITE(coins_store_encoding_tests)

// Core's VARINT bit patterns, both ways; and what no 64-bit value encodes to.
BOOST_AUTO_TEST_CASE(varint_known_answers) {
  const std::pair<uint64_t, std::string_view> pairs[] = {
      {0, "00"},
      {0x7f, "7f"},
      {0x80, "8000"},
      {0x1234, "a334"},
      {0xffff, "82fe7f"},
      {0x123456, "c7e756"},
      {0x80123456, "86ffc7e756"},
      {0xffffffff, "8efefefe7f"},
      {3'000'000'000, "8a95c0bb00"},
      {0x7fffffffffffffff, "fefefefefefefefe7f"},
      {0xffffffffffffffff, "80fefefefefefefefe7f"},
  };
  for (const Codec& c : Codecs()) {
    BOOST_TEST_CONTEXT(c.name) {
      for (const auto& [n, hex] : pairs) {
        BOOST_TEST(Hex(c.varint(n)) == hex);
        BOOST_TEST(Render(c.read_varint(Unhex(hex))) == std::to_string(n), hex);
      }
      // 2^64 (one past the largest), an eleven-byte form, a continuation with nothing after it, nothing.
      for (const std::string_view bad : {"80fefefefefefefeff00", "8080808080808080808000", "80", ""}) {
        BOOST_TEST(!c.read_varint(Unhex(bad)).has_value(), bad);
      }
    }
  }
}

// Core's amount pairs, and round trips over the ranges Core sweeps: single satoshis, cents, coins, and
// multiples of 50 BTC up to the money supply; every compressed value below 100,000 is some amount's.
BOOST_AUTO_TEST_CASE(amount_compression_known_answers) {
  constexpr uint64_t kCent = 1'000'000, kCoin = 100'000'000;
  const std::pair<uint64_t, uint64_t> pairs[] = {
      {0, 0x0}, {1, 0x1}, {kCent, 0x7}, {kCoin, 0x9}, {50 * kCoin, 0x32}, {21'000'000 * kCoin, 0x1406f40},
  };
  for (const Codec& c : Codecs()) {
    BOOST_TEST_CONTEXT(c.name) {
      for (const auto& [amount, compressed] : pairs) {
        BOOST_TEST(c.compress_amount(amount) == compressed);
        BOOST_TEST(Render(c.decompress_amount(compressed)) == std::to_string(amount));
      }
      size_t failures = 0;
      auto round_trip = [&](uint64_t amount) { failures += c.decompress_amount(c.compress_amount(amount)) != amount; };
      for (uint64_t i = 1; i <= 100'000; ++i) round_trip(i);
      for (uint64_t i = 1; i <= 10'000; ++i) round_trip(i * kCent);
      for (uint64_t i = 1; i <= 10'000; ++i) round_trip(i * kCoin);
      for (uint64_t i = 1; i <= 420'000; ++i) round_trip(i * 50 * kCoin);
      for (uint64_t x = 0; x < 100'000; ++x) {
        const auto amount = c.decompress_amount(x);
        failures += !amount || c.compress_amount(*amount) != x;
      }
      BOOST_TEST(failures == 0u);
    }
  }
}

// Ids 0..5 with their bodies, and the whole form, both ways.
BOOST_AUTO_TEST_CASE(script_compression_known_answers) {
  const std::string h20 = "816115944e077fe7c803cfa57f29b36bf87c1d35";
  const std::string gx(kG.substr(0, 64)), genesis_x(kGenesisKey.substr(0, 64));
  const std::pair<std::string, std::string> pairs[] = {
      // script, compressed (hex)
      {"76a914" + h20 + "88ac", "00" + h20},                         // P2PKH
      {"a914" + h20 + "87", "01" + h20},                             // P2SH
      {P2pkHex("02" + gx), "02" + gx},                               // P2PK, compressed key, y even
      {P2pkHex("03" + genesis_x), "03" + genesis_x},                 // P2PK, compressed key, y odd
      {P2pkHex("04" + std::string(kG)), "04" + gx},                  // P2PK, uncompressed key, y even
      {P2pkHex("04" + std::string(kGenesisKey)), "05" + genesis_x},  // P2PK, uncompressed key, y odd
      {"0014" + h20, "1c0014" + h20},                                // P2WPKH: whole, VARINT(22 + 6)
      {"", "06"},                                                    // empty: whole
  };
  for (const Codec& c : Codecs()) {
    BOOST_TEST_CONTEXT(c.name) {
      for (const auto& [script, compressed] : pairs) {
        BOOST_TEST(Hex(c.compress_script(ScriptOf(script))) == compressed, script);
        BOOST_TEST(Render(c.read_script(Unhex(compressed))) == script, compressed);
      }
    }
  }
}

// Core compresses an uncompressed key only when its point is valid: keys with x off the curve, with a y
// that is not a root for x, or in the hybrid form (0x06/0x07, which libsecp256k1 would parse) stay whole,
// as VARINT(67 + 6) = 0x49 and the 67 bytes. Ids 4/5 with an x off the curve read back as an empty
// script, 32 bytes consumed, as in Core.
BOOST_AUTO_TEST_CASE(uncompressed_keys_off_the_curve) {
  std::vector<std::string> whole;  // keys
  for (const std::string_view x : kXOffCurve) whole.push_back("04" + std::string(x) + std::string(kG.substr(64)));
  std::string flipped_y(kG);
  flipped_y.back() = '9';  // ...b8 → ...b9: no longer a root for this x
  whole.push_back("04" + flipped_y);
  whole.push_back("06" + std::string(kG));           // hybrid, parity right
  whole.push_back("07" + std::string(kGenesisKey));  // likewise
  whole.push_back("05" + std::string(kG));           // neither prefix
  for (const Codec& c : Codecs()) {
    BOOST_TEST_CONTEXT(c.name) {
      for (const std::string& key : whole) {
        const std::string script = P2pkHex(key);
        BOOST_TEST(Hex(c.compress_script(ScriptOf(script))) == "49" + script);
        BOOST_TEST(Render(c.read_script(Unhex("49" + script))) == script);
      }
      for (const std::string_view x : kXOffCurve) {
        for (const std::string_view id : {"04", "05"}) {
          BOOST_TEST(Render(c.read_script(Unhex(std::string(id) + std::string(x)))) == "", id << x);
          BOOST_TEST(!c.read_script(Unhex(std::string(id) + std::string(x) + "00")).has_value());  // all consumed
          // In a coin record: a coin with an empty script, not an error.
          const auto coin = c.decode_coin(Unhex("0000" + std::string(id) + std::string(x)));
          BOOST_TEST((coin && coin->script.empty() && coin->amount == 0), Render(coin));
        }
        BOOST_TEST(!c.read_script(Unhex("04" + std::string(x.substr(2)))).has_value());  // 31 bytes: truncated
      }
    }
  }
}

// The chainstate records of Core's coins tests, and one with an uncompressed P2PK.
BOOST_AUTO_TEST_CASE(coin_record_known_answers) {
  auto p2pkh = [](std::string_view h) { return ScriptOf("76a914" + std::string(h) + "88ac"); };
  struct Record {
    std::string_view hex;
    Coin coin;
  };
  const Record records[] = {
      {"97f23c835800816115944e077fe7c803cfa57f29b36bf87c1d35",
       Coin(60'000'000'000, p2pkh("816115944e077fe7c803cfa57f29b36bf87c1d35"), 203998, false)},
      {"8ddf77bbd123008c988f1a4a4de2161e0f50aac7f17e7f9555caa4",
       Coin(110397, p2pkh("8c988f1a4a4de2161e0f50aac7f17e7f9555caa4"), 120891, true)},
      {"000006", Coin(0, Script(), 0, false)},  // the smallest record
      // 50 BTC to the genesis key in a coinbase at height 0: code 1, amount 0x32, id 5 and x.
      {"013205678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb6",
       Coin(50 * 100'000'000LL, ScriptOf(P2pkHex("04" + std::string(kGenesisKey))), 0, true)},
  };
  for (const Codec& c : Codecs()) {
    BOOST_TEST_CONTEXT(c.name) {
      for (const Record& r : records) {
        BOOST_TEST(Render(c.decode_coin(Unhex(r.hex))) == r.coin.ToString());
        BOOST_TEST(Hex(c.encode_coin(r.coin)) == r.hex);
      }
      // A script running past the record's end; a script length of 3·10^9 past it.
      BOOST_TEST(!c.decode_coin(Unhex("000007")).has_value());
      BOOST_TEST(!c.decode_coin(Unhex("00008a95c0bb00")).has_value());
    }
  }
}

#if !SUITE_SUBJECT_CORE
// Subject and reference agree on every coin of the testers' table and on damaged records: each byte of
// records with every script form flipped, cut or extended, decoded by both.
BOOST_AUTO_TEST_CASE(subject_and_reference_agree_on_damaged_records) {
  const Codec subject = Subject(), reference = Reference();
  std::vector<std::string> records;
  for (size_t i = 0; i < 62; ++i) {  // 62 and 63 are unspendable, never stored
    const Coin& coin = harness::CoinTable()[i];
    BOOST_TEST_REQUIRE(Hex(subject.encode_coin(coin)) == Hex(reference.encode_coin(coin)), "table coin " << i);
    BOOST_TEST_REQUIRE(Render(subject.decode_coin(subject.encode_coin(coin))) == coin.ToString(), "table coin " << i);
    records.push_back(subject.encode_coin(coin));
  }
  // The table's uncompressed keys on the curve (coins 14, 22, 46, 54) end their records as id 4 or 5 and x.
  for (const size_t i : {14, 22, 46, 54}) {
    const std::string& r = records[i];
    BOOST_TEST((r.size() < 40 && (r[r.size() - 33] == 4 || r[r.size() - 33] == 5)),
               "table coin " << i << ": " << Hex(r));
  }
  for (const std::string& good : records) {
    std::vector<std::string> bad;
    for (size_t i = 0; i < good.size(); ++i) {
      for (const uint8_t mask : {0x01, 0x02, 0x40, 0x80, 0xff}) {
        bad.push_back(good);
        bad.back()[i] = static_cast<char>(bad.back()[i] ^ mask);
      }
      bad.push_back(good.substr(0, i));
    }
    bad.push_back(good + '\0');
    for (const std::string& b : bad) {
      BOOST_TEST_REQUIRE(Render(subject.decode_coin(b)) == Render(reference.decode_coin(b)), Hex(b));
    }
  }
}
#endif

BOOST_AUTO_TEST_SUITE_END()
