// FaultEnv: a LevelDB Env over another (an in-memory one) that makes its disk fail, in the manner of
// LevelDB's own fault-injection test: once armed, the k-th write (WritableFile::Append), sync
// (WritableFile::Sync) or read (RandomAccessFile::Read, SequentialFile::Read) from then on fails with an
// IOError and does nothing; and DropUnsyncedData() cuts every file written through it back to the length it
// had when last synced, as a power loss would (a file never synced is emptied).
//
// Stores open their database on it (seam/coins_store.h Options::env); the store tester arms it around one
// operation and checks what the store does with the failure. Only the operations of the thread that armed
// it count: LevelDB's background compactions run when they like, and a fault must strike the same operation
// on every run of an input. It keeps no state but the file lengths and the armed fault, so a fresh one per
// fuzz input keeps nothing across inputs.
//
// Written against both LevelDB interfaces the suite meets (the system's 1.23 and the copy inside Bitcoin
// Core): the file wrappers define GetName(), which only Core's copy declares, and so use no `override`.
#pragma once

#include <leveldb/env.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace harness {

class FaultEnv : public leveldb::EnvWrapper {
 public:
  enum class Kind : uint8_t { kWrite, kSync, kRead };

  // `base` must outlive this Env.
  explicit FaultEnv(leveldb::Env* base) : leveldb::EnvWrapper(base) {}

  // From now on, the k-th (1-based) operation of `kind` by this thread fails; then the Env works again.
  // Clears injected().
  void Arm(Kind kind, uint32_t k);
  void Disarm();
  // Whether the armed fault has happened since Arm.
  bool injected() const;
  // Operations of `kind` by the arming thread since Arm.
  uint32_t seen(Kind kind) const;

  // Every file written through this Env is cut back to its length at its last Sync (0 if never synced).
  // Requires: nothing holds the files open for writing (the database is closed).
  void DropUnsyncedData();

  leveldb::Status NewSequentialFile(const std::string& name, leveldb::SequentialFile** result) override;
  leveldb::Status NewRandomAccessFile(const std::string& name, leveldb::RandomAccessFile** result) override;
  leveldb::Status NewWritableFile(const std::string& name, leveldb::WritableFile** result) override;
  leveldb::Status NewAppendableFile(const std::string& name, leveldb::WritableFile** result) override;
  leveldb::Status RenameFile(const std::string& from, const std::string& to) override;

  // For the file wrappers: whether this operation fails (counting it), and recording lengths.
  bool Fails(Kind kind);
  void Written(const std::string& name, uint64_t length, bool synced);

 private:
  struct Length {
    uint64_t written = 0;
    uint64_t synced = 0;
  };
  mutable std::mutex mutex_;  // LevelDB writes from its background thread too
  bool armed_ = false;
  std::thread::id thread_;
  Kind kind_ = Kind::kWrite;
  uint32_t at_ = 0;
  uint32_t seen_[3] = {0, 0, 0};
  bool injected_ = false;
  std::map<std::string, Length> files_;
};

}  // namespace harness
