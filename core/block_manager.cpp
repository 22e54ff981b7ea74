#include "core/block_manager.h"

#include <dbwrapper.h>
#include <kernel/blockmanager_opts.h>
#include <tinyformat.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace core_adapter {

const CChainParams* FindChain(const MessageStart& magic) {
  static const std::vector<std::unique_ptr<const CChainParams>> chains = [] {
    std::vector<std::unique_ptr<const CChainParams>> v;
    v.push_back(CChainParams::Main());
    v.push_back(CChainParams::TestNet());
    v.push_back(CChainParams::TestNet4());
    v.push_back(CChainParams::RegTest({}));
    return v;
  }();
  for (const auto& c : chains) {
    if (c->MessageStart() == magic) return c.get();
  }
  return nullptr;
}

const CChainParams& ChainFor(const MessageStart& magic) {
  const CChainParams* chain = FindChain(magic);
  if (chain == nullptr) throw std::invalid_argument("no Bitcoin Core chain has this message start");
  return *chain;
}

BlocksDir::BlocksDir(fs::path path, bool fast_prune) : path_(std::move(path)), fast_prune_(fast_prune) {
  std::filesystem::create_directories(path_);
}

BlocksDir::~BlocksDir() { manager_.reset(); }

node::BlockManager& BlocksDir::Manager(const CChainParams& chain, const Obfuscation::KeyBytes& key) {
  if (manager_ && chain_ == &chain && key_ == key) return *manager_;
  manager_.reset();
  const fs::path xor_path = path_ / "xor.dat";
  std::filesystem::remove(xor_path);
  AutoFile xor_file(std::fopen(fs::PathToString(xor_path).c_str(), "wb"));
  xor_file.Write(key);
  xor_file.Close();
  node::BlockManager::Options opts{
      .chainparams = chain,
      .fast_prune = fast_prune_,
      .blocks_dir = path_,
      .notifications = notifications_,
      .block_tree_db_params = DBParams{.path = path_ / "index", .cache_bytes = 1 << 20, .memory_only = true},
  };
  manager_ = std::make_unique<node::BlockManager>(interrupt_, std::move(opts));
  chain_ = &chain;
  key_ = key;
  return *manager_;
}

CBlockIndex& BlocksDir::ReusedIndex() {
  reused_.nFile = 0;
  reused_.nDataPos = 0;
  reused_.nUndoPos = 0;
  reused_.nStatus = 0;
  reused_.nHeight = 0;
  reused_.pprev = nullptr;
  return reused_;
}

void BlocksDir::Reset() {
  manager_.reset();
  indices_.clear();
  placed_.clear();
  for (const auto& entry : std::filesystem::directory_iterator(path_)) std::filesystem::remove_all(entry.path());
}

fs::path BlocksDir::FilePath(const char* prefix, int file) const {
  return path_ / fs::u8path(strprintf("%s%05u.dat", prefix, file));
}

std::vector<uint8_t> BlocksDir::ReadBack(const char* prefix, const FlatFilePos& pos, size_t size) const {
  const fs::path file = FilePath(prefix, pos.nFile);
  AutoFile in(std::fopen(fs::PathToString(file).c_str(), "rb"), Obfuscation(key_));
  if (!in.IsOpen()) throw IoError("cannot open " + fs::PathToString(file));
  std::vector<uint8_t> bytes(size);
  in.Seek(pos.nPos, SEEK_SET);
  in.Read(bytes);
  in.Close();
  return bytes;
}

void BlocksDir::Place(const std::string& name, std::vector<uint8_t> bytes) {
  std::vector<uint8_t>& placed = placed_[name];
  if (placed == bytes && std::filesystem::exists(path_ / fs::u8path(name))) return;
  placed.clear();
  const std::string path = fs::PathToString(path_ / fs::u8path(name));
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0) {
    throw IoError("cannot write the scratch file " + path);
  }
  placed = std::move(bytes);
}

bool SerializesExactly(std::span<const uint8_t> payload, const std::function<void(DataStream&)>& read,
                       const std::function<void(DataStream&)>& write) {
  const std::span<const std::byte> bytes = std::as_bytes(payload);
  DataStream in{bytes};
  try {
    read(in);
  } catch (const std::exception&) {
    return false;
  }
  if (!in.empty()) return false;
  DataStream again;
  write(again);
  return again.size() == payload.size() && std::equal(again.begin(), again.end(), bytes.begin());
}

}  // namespace core_adapter
