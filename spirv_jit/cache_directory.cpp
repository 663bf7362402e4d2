#include "cache_directory.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>

namespace tessera::jit {

std::string usableCacheDirectory(const std::string& path) {
  if (path.empty()) return {};
  // The parent (~/.cache) is made when missing, private as the XDG spec asks; an existing one
  // (/tmp for tests) is left as it is.
  const size_t slash = path.rfind('/');
  if (slash != std::string::npos && slash > 0) mkdir(path.substr(0, slash).c_str(), 0700);
  mkdir(path.c_str(), 0700);
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid()) return {};
  // Caches made by earlier versions were 0755: narrowed, so nobody else lists or reads them.
  if ((st.st_mode & 077) != 0 && chmod(path.c_str(), 0700) != 0 && (st.st_mode & 022) != 0) return {};
  return path;
}

const std::string& cacheDirectory() {
  static const std::string dir = [] {
    const char* off = std::getenv("TESSERA_SHADER_CACHE");
    if (off && std::string(off) == "0") return std::string();
    std::string path;
    if (const char* d = std::getenv("TESSERA_SHADER_CACHE_DIR"); d && *d) path = d;
    else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) path = std::string(x) + "/tessera";
    else if (const char* h = std::getenv("HOME"); h && *h) path = std::string(h) + "/.cache/tessera";
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    return usableCacheDirectory(path);
  }();
  return dir;
}

bool readOwnedFile(const std::string& path, size_t maxBytes, std::vector<uint8_t>* out, bool privateOnly) {
  // O_NONBLOCK: a FIFO planted under a cache name must not block the open.
  const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  struct stat st;
  bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
            (st.st_mode & (privateOnly ? 077 : 022)) == 0 && st.st_size >= 0 &&
            uint64_t(st.st_size) <= maxBytes;
  if (ok) {
    out->resize(size_t(st.st_size));
    size_t done = 0;
    while (ok && done < out->size()) {
      const ssize_t n = read(fd, out->data() + done, out->size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) ok = false;  // shrunk meanwhile, or an I/O error
      else done += size_t(n);
    }
  }
  close(fd);
  return ok;
}

bool writePrivateFile(const std::string& directory, const std::string& name, const std::vector<uint8_t>& bytes,
                      bool replace) {
  static std::atomic<uint64_t> counter{0};
  const std::string tmp = directory + "/." + name + "." + std::to_string(getpid()) + "." +
                          std::to_string(counter.fetch_add(1)) + ".tmp";
  const std::string target = directory + "/" + name;
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  bool ok = true;
  for (size_t done = 0; ok && done < bytes.size();) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ok = false;
    else done += size_t(n);
  }
  ok &= close(fd) == 0;
  // link() never replaces: the first of several racing writers wins.
  if (ok) ok = replace ? rename(tmp.c_str(), target.c_str()) == 0 : link(tmp.c_str(), target.c_str()) == 0;
  if (!ok || !replace) unlink(tmp.c_str());
  return ok;
}

}  // namespace tessera::jit
