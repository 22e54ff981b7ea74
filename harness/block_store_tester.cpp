#include "block_store_tester.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>

#include "block_files_ref.h"
#include "block_files_tester.h"
#include "fault_file.h"
#include "known_bugs.h"
#include "observe.h"
#include "obfuscation_ref.h"
#include "record_payloads.h"
#include "rng.h"
#include "seam/block_files.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // tester and model: the subject is compiled out of line
namespace {

constexpr const char kDirPrefix[] = "block_store.";

// Where scratch directories go: /dev/shm (memory, fast) when there is one, else $TMPDIR or /tmp.
std::filesystem::path ScratchRoot() {
  std::error_code ec;
  if (std::filesystem::is_directory("/dev/shm", ec) && access("/dev/shm", W_OK) == 0) return "/dev/shm";
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

// Removes the scratch directories of processes that died before they could (a crash, a killed fuzzer).
void RemoveOrphans(const std::filesystem::path& root) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(root, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kDirPrefix, 0) != 0) continue;
    char* end = nullptr;
    const long pid = std::strtol(name.c_str() + sizeof(kDirPrefix) - 1, &end, 10);
    if (pid > 0 && *end == '.' && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      std::filesystem::remove_all(entry.path(), ec);
    }
  }
}

std::string MakeDir() {
  static const std::filesystem::path root = [] {
    std::filesystem::path r = ScratchRoot();
    RemoveOrphans(r);
    return r;
  }();
  std::string pattern = (root / (kDirPrefix + std::to_string(getpid()) + "." + std::string(6, 'X')))
                            .string();  // mkdtemp fills the X's in
  HARNESS_CHECK(mkdtemp(pattern.data()) != nullptr, "mkdtemp failed for ", pattern);
  return pattern;
}

// The hash of the block before the block at `height` (what an undo record's checksum binds it to).
Hash256 PrevHash(uint32_t height) {
  Hash256 h;
  Rng rng(0x9e3779b9ULL + height);
  for (auto& b : h.bytes) b = static_cast<uint8_t>(rng.Next());
  return h;
}

}  // namespace

std::string BlockStoreStep::ToString() const {
  std::string out = std::string(harness::ToString(op)) + "(";
  if (op == BlockStoreOp::kBlock || op == BlockStoreOp::kUndo || op == BlockStoreOp::kFail) {
    out += "size=" + std::to_string(size) + ", seed=" + std::to_string(seed);
  }
  if (op == BlockStoreOp::kBlock || op == BlockStoreOp::kFail) out += ", back=" + std::to_string(back);
  if (op == BlockStoreOp::kUndo || op == BlockStoreOp::kFail) out += ", which=" + std::to_string(which);
  if (op == BlockStoreOp::kFail) {
    out += std::string(", fails: ") +
           fault_file::ToString(static_cast<fault_file::Call>(fault % fault_file::kCallCount)) + " " +
           std::to_string(1 + fault / 5 % 4) + (fault / 20 % 2 ? " (half written)" : "") +
           (fault / 40 % 2 ? " and on" : "");
  }
  return out + ")";
}

BlockStoreTester::BlockStoreTester(const seam::Obfuscation::KeyBytes& key) : dir_(MakeDir()), key_(key) {
  store_.emplace(seam::BlockStore::Options{dir_, kMagic, key_});
}

BlockStoreTester::~BlockStoreTester() {
  store_.reset();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::vector<uint8_t> BlockStoreTester::Payload(bool undo, uint32_t size, uint32_t seed) const {
  if (undo) return UndoPayload(std::max<uint32_t>(size, 1), seed);
  // A block's size can be 81, or 132 and more save a few where the reference layout has no block.
  for (uint32_t s = std::max<uint32_t>(size, 132); s < size + 16 && size >= 82; ++s) {
    if (auto block = BlockPayload(s, seed)) return std::move(*block);
  }
  return *BlockPayload(81, seed);
}

bool BlockStoreTester::Apply(BlockStoreStep step) {
  if (ended_) return false;
  switch (step.op) {
    case BlockStoreOp::kBlock: return ApplyWrite(step, /*undo=*/false, /*failing=*/false);
    case BlockStoreOp::kUndo: return ApplyWrite(step, /*undo=*/true, /*failing=*/false);
    case BlockStoreOp::kReadAll:
      log_.Add(step);
      CheckAll();
      return true;
    case BlockStoreOp::kFail: return ApplyWrite(step, /*undo=*/step.which % 2 == 1, /*failing=*/true);
  }
  return false;
}

bool BlockStoreTester::ApplyWrite(const BlockStoreStep& step, bool undo, bool failing) {
  if (undo && !seam::kUndoRecordReads) return false;  // the subject has no undo writer and reader
  Record r;
  r.undo = undo;
  if (undo) {
    std::vector<size_t> blocks;
    for (size_t i = 0; i < records_.size(); ++i) {
      if (!records_[i].undo) blocks.push_back(i);
    }
    if (blocks.empty()) return false;
    const Record& block = records_[blocks[(step.which / 2) % blocks.size()]];
    r.block = block.pos;
    r.height = block.height;
    r.prev = PrevHash(block.height);
  } else {
    r.height = next_height_ > step.back ? next_height_ - step.back : 0;
    if (step.back == 0) ++next_height_;
  }
  fault_file::Fault fault;
  if (failing) {
    fault.call = static_cast<fault_file::Call>(step.fault % fault_file::kCallCount);
    fault.at = 1 + step.fault / 5 % 4;
    fault.effect = step.fault / 20 % 2 ? fault_file::Effect::kShort : fault_file::Effect::kFail;
    fault.persistent = step.fault / 40 % 2;
    fault.error = step.fault / 80 % 2 ? EIO : ENOSPC;
    // A failing write meets both forms of writer_failed_flush a block write can: the destructor's flush that
    // ends the process, and a failed flush's buffer written again.
    if (fault.call == fault_file::Call::kWrite &&
        !(KnownBugCheckRuns(KnownBug::kWriterBlockTerminate) && KnownBugCheckRuns(KnownBug::kWriterPlaintext))) {
      return false;
    }
  }
  log_.Add(step);
  uint32_t size = step.size;
  if (!undo && size < 81) {
    const uint32_t used = model_.files()[model_.current()].info.size;
    const int64_t fill =
        int64_t{seam::BlockStore::kMaxFileSize} - used - BlockStoreModel::kHeader + int64_t{size % 5} - 2;
    size = static_cast<uint32_t>(std::max<int64_t>(fill, 81));
  }
  r.payload = Payload(undo, size, step.seed);
  const bool again = undo && model_.HasUndo(r.block);
  const int files_before = static_cast<int>(model_.files().size());
  r.pos = undo ? model_.WriteBlockUndo(r.block, static_cast<uint32_t>(r.payload.size()), r.height)
               : model_.WriteBlock(static_cast<uint32_t>(r.payload.size()), r.height);
  FilePos got;
  {
    std::optional<fault_file::Armed> armed;
    if (failing) armed.emplace(fault);
    try {
      got =
          undo ? store_->WriteBlockUndo(r.payload, r.prev, r.block, r.height) : store_->WriteBlock(r.payload, r.height);
    } catch (const seam::ContractBreak& e) {
      HARNESS_CHECK(false, "a finding against the tree: a failure the node's callers would not handle: ", e.what());
    }
  }
  const bool struck = failing && fault_file::Injected();
  HARNESS_OBSERVE(undo ? "WriteBlockUndo" : "WriteBlock", got.file, ":", got.pos);
  if (struck) {
    // The node stops here: what it wrote before must be intact, and what it was writing must be its own
    // bytes or nothing.
    ended_ = true;
    HARNESS_CHECK(got.IsNull() || got == r.pos, "a write on a failing disk returned ", got.file, ":", got.pos,
                  ", neither the null position nor the model's ", r.pos.file, ":", r.pos.pos);
    if (!again) {
      CheckRaw(r, /*or_zero=*/got.IsNull());
      if (!got.IsNull()) CheckRead(r);
    }
    for (const Record& before : records_) CheckRead(before);
    return true;
  }
  HARNESS_CHECK(got == r.pos, undo ? "WriteBlockUndo" : "WriteBlock", " returned ", got.file, ":", got.pos,
                ", the model's ", r.pos.file, ":", r.pos.pos);
  if (again) {
    // Nothing was written: the record there is still the first one.
    for (const Record& first : records_) {
      if (first.undo && first.pos == r.pos) CheckRead(first);
    }
  } else {
    records_.push_back(r);
    CheckRaw(r, /*or_zero=*/false);
    CheckRead(r);
  }
  CheckFiles();
  if (static_cast<int>(model_.files().size()) != files_before) CheckAll();  // a roll-over: every record, again
  return true;
}

void BlockStoreTester::CheckRaw(const Record& r, bool or_zero) const {
  std::vector<uint8_t> want;
  EncodeRecordRef(want, r.undo, kMagic, r.prev, r.payload);
  const uint64_t start = r.pos.pos - BlockStoreModel::kHeader;
  XorRef(want, key_, start);
  std::vector<uint8_t> disk(want.size(), 0);
  const int fd = open(store_->Path(r.undo ? "rev" : "blk", r.pos.file).c_str(), O_RDONLY | O_CLOEXEC);
  for (size_t done = 0; fd >= 0 && done < disk.size();) {  // a short file leaves zeros
    const ssize_t n = pread(fd, disk.data() + done, disk.size() - done, static_cast<off_t>(start + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  if (fd >= 0) close(fd);
  if (disk == want) return;
  for (size_t i = 0; i < want.size(); ++i) {  // the first byte that differs, named
    HARNESS_CHECK(disk[i] == want[i] || (or_zero && disk[i] == 0), r.undo ? "rev" : "blk", r.pos.file, ".dat at ",
                  start + i, ": ", int{disk[i]}, ", the record's byte is ", int{want[i]},
                  or_zero ? " (or 0: not written)" : "",
                  (disk[i] ^ want[i]) == key_[(start + i) % 8] && key_[(start + i) % 8] != 0 ? ": the plaintext" : "");
  }
}

void BlockStoreTester::CheckRead(const Record& r) const {
  if (!r.undo && !seam::kBlockRecordReads) return;  // the subject has no block reader (its bytes on disk are checked)
  const auto got = r.undo ? store_->ReadBlockUndo(r.pos, r.prev) : store_->ReadBlock(r.pos);
  HARNESS_CHECK(got.has_value(), "the ", r.undo ? "undo" : "block", " record at ", r.pos.file, ":", r.pos.pos,
                " does not read back");
  HARNESS_CHECK(*got == r.payload, "the ", r.undo ? "undo" : "block", " record at ", r.pos.file, ":", r.pos.pos,
                " reads back other bytes");
}

void BlockStoreTester::CheckFiles() const {
  const auto& files = model_.files();
  for (size_t i = 0; i < files.size(); ++i) {
    const BlockStoreModel::File& f = files[i];
    if (f.info.blocks == 0) continue;  // no file yet (before the first block)
    const BlockFileInfo info = store_->Info(static_cast<int>(i));
    const BlockFileInfo& want = f.info;
    HARNESS_CHECK(info == want, "file ", i, ": the store has size ", info.size, ", undo size ", info.undo_size, ", ",
                  info.blocks, " blocks at heights ", info.height_first, "-", info.height_last, "; the model ",
                  want.size, ", ", want.undo_size, ", ", want.blocks, ", ", want.height_first, "-", want.height_last);
    for (const auto& [prefix, length] : {std::pair("blk", f.blk_length), std::pair("rev", f.rev_length)}) {
      struct stat st;
      const bool exists = stat(store_->Path(prefix, static_cast<int>(i)).c_str(), &st) == 0;
      HARNESS_CHECK(exists == length.has_value(), prefix, i, ".dat ", exists ? "exists" : "does not exist",
                    length ? ", the model has it" : ", the model has none");
      if (exists) {
        HARNESS_CHECK_EQ(static_cast<uint64_t>(st.st_size), *length, prefix, i, ".dat's length on disk");
      }
    }
  }
}

void BlockStoreTester::CheckAll() {
  if (ended_) return;
  for (const Record& r : records_) CheckRead(r);
  CheckFiles();
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
