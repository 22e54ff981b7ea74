#include "fault_env.h"

#include <vector>

#include "check.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // test machinery: no coverage feedback for the fuzzer
namespace {

leveldb::Status Injected(const char* what, const std::string& name) {
  return leveldb::Status::IOError(name, std::string("injected ") + what + " failure");
}

class FaultySequentialFile : public leveldb::SequentialFile {
 public:
  FaultySequentialFile(FaultEnv& env, std::string name, leveldb::SequentialFile* file)
      : env_(env), name_(std::move(name)), file_(file) {}
  leveldb::Status Read(size_t n, leveldb::Slice* result, char* scratch) {
    if (env_.Fails(FaultEnv::Kind::kRead)) return Injected("read", name_);
    return file_->Read(n, result, scratch);
  }
  leveldb::Status Skip(uint64_t n) { return file_->Skip(n); }
  std::string GetName() const { return name_; }

 private:
  FaultEnv& env_;
  const std::string name_;
  std::unique_ptr<leveldb::SequentialFile> file_;
};

class FaultyRandomAccessFile : public leveldb::RandomAccessFile {
 public:
  FaultyRandomAccessFile(FaultEnv& env, std::string name, leveldb::RandomAccessFile* file)
      : env_(env), name_(std::move(name)), file_(file) {}
  leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result, char* scratch) const {
    if (env_.Fails(FaultEnv::Kind::kRead)) return Injected("read", name_);
    return file_->Read(offset, n, result, scratch);
  }
  std::string GetName() const { return name_; }

 private:
  FaultEnv& env_;
  const std::string name_;
  std::unique_ptr<leveldb::RandomAccessFile> file_;
};

class FaultyWritableFile : public leveldb::WritableFile {
 public:
  FaultyWritableFile(FaultEnv& env, std::string name, leveldb::WritableFile* file, uint64_t length)
      : env_(env), name_(std::move(name)), file_(file), length_(length) {}
  leveldb::Status Append(const leveldb::Slice& data) {
    if (env_.Fails(FaultEnv::Kind::kWrite)) return Injected("write", name_);
    const leveldb::Status s = file_->Append(data);
    if (s.ok()) {
      length_ += data.size();
      env_.Written(name_, length_, /*synced=*/false);
    }
    return s;
  }
  leveldb::Status Close() { return file_->Close(); }
  leveldb::Status Flush() { return file_->Flush(); }
  leveldb::Status Sync() {
    if (env_.Fails(FaultEnv::Kind::kSync)) return Injected("sync", name_);
    const leveldb::Status s = file_->Sync();
    if (s.ok()) env_.Written(name_, length_, /*synced=*/true);
    return s;
  }
  std::string GetName() const { return name_; }

 private:
  FaultEnv& env_;
  const std::string name_;
  std::unique_ptr<leveldb::WritableFile> file_;
  uint64_t length_;
};

}  // namespace

void FaultEnv::Arm(Kind kind, uint32_t k) {
  const std::lock_guard lock(mutex_);
  armed_ = k > 0;
  thread_ = std::this_thread::get_id();
  kind_ = kind;
  at_ = k;
  seen_[0] = seen_[1] = seen_[2] = 0;
  injected_ = false;
}

void FaultEnv::Disarm() {
  const std::lock_guard lock(mutex_);
  armed_ = false;
}

bool FaultEnv::injected() const {
  const std::lock_guard lock(mutex_);
  return injected_;
}

uint32_t FaultEnv::seen(Kind kind) const {
  const std::lock_guard lock(mutex_);
  return seen_[static_cast<int>(kind)];
}

bool FaultEnv::Fails(Kind kind) {
  const std::lock_guard lock(mutex_);
  if (std::this_thread::get_id() != thread_) return false;
  const uint32_t n = ++seen_[static_cast<int>(kind)];
  if (!armed_ || kind != kind_ || n != at_) return false;
  armed_ = false;
  injected_ = true;
  return true;
}

void FaultEnv::Written(const std::string& name, uint64_t length, bool synced) {
  const std::lock_guard lock(mutex_);
  Length& l = files_[name];
  l.written = length;
  if (synced) l.synced = length;
}

leveldb::Status FaultEnv::NewSequentialFile(const std::string& name, leveldb::SequentialFile** result) {
  leveldb::SequentialFile* file = nullptr;
  const leveldb::Status s = target()->NewSequentialFile(name, &file);
  *result = s.ok() ? new FaultySequentialFile(*this, name, file) : nullptr;
  return s;
}

leveldb::Status FaultEnv::NewRandomAccessFile(const std::string& name, leveldb::RandomAccessFile** result) {
  leveldb::RandomAccessFile* file = nullptr;
  const leveldb::Status s = target()->NewRandomAccessFile(name, &file);
  *result = s.ok() ? new FaultyRandomAccessFile(*this, name, file) : nullptr;
  return s;
}

leveldb::Status FaultEnv::NewWritableFile(const std::string& name, leveldb::WritableFile** result) {
  leveldb::WritableFile* file = nullptr;
  const leveldb::Status s = target()->NewWritableFile(name, &file);
  if (!s.ok()) {
    *result = nullptr;
    return s;
  }
  {
    const std::lock_guard lock(mutex_);
    files_[name] = Length{};  // a new file: nothing of it is synced yet
  }
  *result = new FaultyWritableFile(*this, name, file, 0);
  return s;
}

leveldb::Status FaultEnv::NewAppendableFile(const std::string& name, leveldb::WritableFile** result) {
  uint64_t length = 0;
  if (!target()->GetFileSize(name, &length).ok()) length = 0;
  leveldb::WritableFile* file = nullptr;
  const leveldb::Status s = target()->NewAppendableFile(name, &file);
  if (!s.ok()) {
    *result = nullptr;
    return s;
  }
  {
    const std::lock_guard lock(mutex_);
    // What existed before is as durable as it was; an unknown file is taken as synced so far.
    if (!files_.count(name)) files_[name] = Length{length, length};
  }
  *result = new FaultyWritableFile(*this, name, file, length);
  return s;
}

leveldb::Status FaultEnv::RenameFile(const std::string& from, const std::string& to) {
  const leveldb::Status s = target()->RenameFile(from, to);
  if (s.ok()) {
    const std::lock_guard lock(mutex_);
    const auto it = files_.find(from);
    if (it != files_.end()) {
      files_[to] = it->second;
      files_.erase(it);
    }
  }
  return s;
}

void FaultEnv::DropUnsyncedData() {
  std::map<std::string, Length> files;
  {
    const std::lock_guard lock(mutex_);
    files = files_;
  }
  for (auto& [name, length] : files) {
    uint64_t size = 0;
    if (!target()->GetFileSize(name, &size).ok() || size <= length.synced) continue;  // removed, or all synced
    std::vector<char> kept(length.synced);
    if (length.synced > 0) {
      leveldb::SequentialFile* in = nullptr;
      HARNESS_CHECK(target()->NewSequentialFile(name, &in).ok(), "FaultEnv: cannot reread ", name);
      std::unique_ptr<leveldb::SequentialFile> reader(in);
      leveldb::Slice got;
      HARNESS_CHECK(reader->Read(kept.size(), &got, kept.data()).ok() && got.size() == kept.size(),
                    "FaultEnv: short reread of ", name);
      if (got.data() != kept.data()) std::copy(got.data(), got.data() + got.size(), kept.data());
    }
    leveldb::WritableFile* out = nullptr;
    HARNESS_CHECK(target()->NewWritableFile(name, &out).ok(), "FaultEnv: cannot rewrite ", name);
    std::unique_ptr<leveldb::WritableFile> writer(out);
    HARNESS_CHECK(writer->Append(leveldb::Slice(kept.data(), kept.size())).ok() && writer->Close().ok(),
                  "FaultEnv: cannot rewrite ", name);
    const std::lock_guard lock(mutex_);
    files_[name] = Length{length.synced, length.synced};
  }
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
