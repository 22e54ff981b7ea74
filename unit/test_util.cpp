#include "test_util.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <stdexcept>
#include <system_error>

namespace unit {

TempDir::TempDir() {
  const char* tmp = std::getenv("TMPDIR");
  // mkdtemp's template: six X's to replace.
  std::string pattern =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/unit_tests." + std::string(6, 'X');
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed: " + pattern);
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string TableLines(const std::string& component) {
  if (!seam::kSubjectIsCore || component.empty()) return {};
  std::string out;
  bool inside = false;
  std::string_view table = seam::kSubjectTable;
  while (!table.empty()) {
    const size_t end = table.find('\n');
    std::string_view line = table.substr(0, end);
    table = end == std::string_view::npos ? std::string_view{} : table.substr(end + 1);
    const size_t indent = line.find_first_not_of(' ');
    if (indent == std::string_view::npos) continue;
    line.remove_prefix(indent);
    if (indent == 2) inside = line.starts_with(component + ":");  // a component's line; deeper: its notes
    if (inside && indent >= 2) out += (out.empty() ? "" : " / ") + std::string(line);
  }
  return out;
}

bool AbortsInChild(const std::function<void()>& fn) {
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    std::signal(SIGABRT, SIG_DFL);
    try {
      fn();
    } catch (...) {
      _exit(2);
    }
    _exit(0);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) throw std::runtime_error("waitpid failed");
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

std::vector<uint8_t> FromHex(std::string_view hex) {
  const auto digit = [hex](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::invalid_argument("FromHex: not a hex digit in '" + std::string(hex) + "'");
  };
  if (hex.size() % 2 != 0) throw std::invalid_argument("FromHex: odd length: '" + std::string(hex) + "'");
  std::vector<uint8_t> out;
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    out.push_back(static_cast<uint8_t>(digit(hex[i]) << 4 | digit(hex[i + 1])));
  }
  return out;
}

std::vector<uint8_t> Bytes(harness::Rng& rng, size_t n) {
  std::vector<uint8_t> out(n);
  for (auto& b : out) b = static_cast<uint8_t>(rng.Next());
  return out;
}

std::vector<uint8_t> RawBytes(const std::string& path, uint64_t offset, size_t n) {
  std::vector<uint8_t> out(n);
  const int fd = open(path.c_str(), O_RDONLY);
  BOOST_REQUIRE(fd >= 0);
  const ssize_t got = pread(fd, out.data(), n, static_cast<off_t>(offset));
  close(fd);
  out.resize(got < 0 ? 0 : static_cast<size_t>(got));
  return out;
}

std::FILE* CountingSink::Open() {
  cookie_io_functions_t io{};
  io.write = [](void* self, const char* data, size_t n) -> ssize_t {
    auto& s = *static_cast<CountingSink*>(self);
    s.calls.push_back(n);
    s.bytes.insert(s.bytes.end(), data, data + n);
    s.offset += static_cast<int64_t>(n);
    return static_cast<ssize_t>(n);
  };
  io.seek = [](void* self, off64_t* at, int whence) -> int {  // enough for ftell: report the offset
    auto& s = *static_cast<CountingSink*>(self);
    if (whence != SEEK_CUR || *at != 0) return -1;
    *at = s.offset;
    return 0;
  };
  std::FILE* f = fopencookie(this, "w", io);
  BOOST_REQUIRE(f != nullptr);
  setvbuf(f, nullptr, _IONBF, 0);
  return f;
}

}  // namespace unit
