// txcheck: the subject's and the reference's verdicts on hex-serialized transactions.
//
//   txcheck HEX...    one transaction per argument
//   txcheck           one transaction per line on standard input (blank lines and lines starting with #
//                     are skipped)
//
// Prints one line per transaction:
//   tx <n> (<bytes> bytes, <inputs> in, <outputs> out): subject=<verdict> reference=<verdict>
// where a verdict is "valid" or the reject reason; a disagreement ends the line with "  <- DISAGREE".
// Malformed hex or bytes that do not parse as one whole transaction are reported on stderr with the
// transaction's number and the parser's message, and the remaining inputs are still checked. When the
// subject brings its own parser (seam::kSubjectCodec: Bitcoin Core's), it must accept exactly the byte
// strings the suite's parser accepts and read the same fields; otherwise that is a disagreement too.
// Exit status: 0 when every transaction parsed and both implementations agreed on all; 1 when they
// disagreed on any (this wins over input errors); 2 for malformed input or a usage error.
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "seam/tx_check.h"
#include "seam/types.h"
#include "tx_check_ref.h"

namespace {

constexpr int kDisagree = 1;
constexpr int kBadInput = 2;

void Usage(std::ostream& out) {
  out << "usage: txcheck [HEX...]\n"
         "Checks each hex-serialized transaction (arguments, or one per line on stdin) with the subject's\n"
         "CheckTransaction and the reference; prints both verdicts. Exit 0: all agree; 1: a disagreement;\n"
         "2: malformed hex, an unparsable transaction, or a usage error.\n";
}

// The bytes of `hex` (either case), or nullopt with `error` set.
std::optional<std::vector<uint8_t>> DecodeHex(const std::string& hex, std::string& error) {
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (hex.empty()) {
    error = "malformed hex: empty";
    return std::nullopt;
  }
  for (size_t i = 0; i < hex.size(); ++i) {
    if (digit(hex[i]) < 0) {
      error = "malformed hex: '" + std::string(1, hex[i]) + "' at position " + std::to_string(i);
      return std::nullopt;
    }
  }
  if (hex.size() % 2 != 0) {
    error = "malformed hex: odd number of digits (" + std::to_string(hex.size()) + ")";
    return std::nullopt;
  }
  std::vector<uint8_t> bytes(hex.size() / 2);
  for (size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<uint8_t>(digit(hex[2 * i]) * 16 + digit(hex[2 * i + 1]));
  }
  return bytes;
}

std::string Verdict(std::string_view reason) { return reason.empty() ? "valid" : std::string(reason); }

// How the subject's own parser disagrees with ParseTransaction on `bytes` (which gave `parsed`, and `tx`
// when parsed); "" when it agrees or the subject has no parser of its own.
std::string ParserDisagreement(const std::vector<uint8_t>& bytes, bool parsed, const Transaction& tx) {
  if constexpr (!seam::kSubjectCodec) return "";
  Transaction subject_tx;
  std::string error;
  const bool subject_parsed = seam::ParseTransactionSubject(bytes, subject_tx, &error);
  if (subject_parsed != parsed) {
    return subject_parsed ? "the subject's parser accepts what ParseTransaction rejects"
                          : "the subject's parser rejects what ParseTransaction accepts: " + error;
  }
  if (parsed && !(subject_tx == tx)) return "the subject's parser reads different fields than ParseTransaction";
  return "";
}

// Checks one transaction; returns 0, kDisagree or kBadInput.
int CheckOne(size_t number, const std::string& hex) {
  std::string error;
  const std::optional<std::vector<uint8_t>> bytes = DecodeHex(hex, error);
  Transaction tx;
  const bool parsed = bytes && ParseTransaction(*bytes, tx, &error);
  if (bytes && !parsed) error = "does not parse as a transaction: " + error;
  if (bytes) {
    if (const std::string disagreement = ParserDisagreement(*bytes, parsed, tx); !disagreement.empty()) {
      std::cout << "tx " << number << " (" << bytes->size() << " bytes): " << disagreement << "  <- DISAGREE\n";
      return kDisagree;
    }
  }
  if (!error.empty()) {
    std::cerr << "txcheck: tx " << number << ": " << error << "\n";
    return kBadInput;
  }
  const std::string subject = Verdict(Reason(seam::CheckTransaction(tx)));
  const std::string reference = Verdict(harness::CheckTransactionRef(tx));
  std::cout << "tx " << number << " (" << bytes->size() << " bytes, " << tx.vin.size() << " in, " << tx.vout.size()
            << " out): subject=" << subject << " reference=" << reference
            << (subject == reference ? "" : "  <- DISAGREE") << "\n";
  return subject == reference ? 0 : kDisagree;
}

std::string Trim(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      Usage(std::cout);
      return 0;
    }
    if (!arg.empty() && arg[0] == '-') {
      std::cerr << "txcheck: unknown option " << arg << "\n";
      Usage(std::cerr);
      return kBadInput;
    }
    inputs.push_back(arg);
  }
  if (argc == 1) {
    for (std::string line; std::getline(std::cin, line);) {
      line = Trim(line);
      if (!line.empty() && line[0] != '#') inputs.push_back(line);
    }
    if (inputs.empty()) {
      std::cerr << "txcheck: no transactions on standard input\n";
      Usage(std::cerr);
      return kBadInput;
    }
  }
  bool disagreed = false;
  bool bad_input = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const int result = CheckOne(i + 1, inputs[i]);
    disagreed = disagreed || result == kDisagree;
    bad_input = bad_input || result == kBadInput;
  }
  return disagreed ? kDisagree : bad_input ? kBadInput : 0;
}
