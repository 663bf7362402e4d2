// A private Xvfb server for tests that present to X11 (wsi_xcb_test.cpp) or run real windowed
// programs (vkcube_test.cpp): Debian's xvfb, on a display it picks itself (-displayfd).
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace tessera_test {

// The path of program `name` on PATH, or empty.
inline std::string findOnPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (size_t at = 0; at <= dirs.size();) {
    size_t end = dirs.find(':', at);
    if (end == std::string::npos) end = dirs.size();
    std::string candidate = dirs.substr(at, end - at) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    at = end + 1;
  }
  return {};
}

// Xvfb's path on PATH, or empty.
inline std::string findXvfb() { return findOnPath("Xvfb"); }

// An Xvfb server of this test's own, on a display it picks itself (-displayfd), with `options`.
class Xvfb {
 public:
  Xvfb(const std::string& binary, const std::vector<std::string>& options) {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      close(fds[0]);
      int null = open("/dev/null", O_WRONLY);
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
      const std::string fd = std::to_string(fds[1]);
      std::vector<const char*> argv = {"Xvfb", "-displayfd", fd.c_str(), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"};
      for (const std::string& o : options) argv.push_back(o.c_str());
      argv.push_back(nullptr);
      execv(binary.c_str(), const_cast<char* const*>(argv.data()));
      _exit(127);
    }
    close(fds[1]);
    std::string number;
    pollfd p{fds[0], POLLIN, 0};
    char c;
    while (poll(&p, 1, 20000) > 0 && read(fds[0], &c, 1) == 1 && c != '\n') number += c;
    close(fds[0]);
    if (!number.empty()) display_ = ":" + number;
  }
  ~Xvfb() { stop(SIGTERM); }
  // Ends the server at once (SIGKILL), as a crash would.
  void kill() { stop(SIGKILL); }
  const std::string& display() const { return display_; }

 private:
  void stop(int signal) {
    if (pid_ <= 0) return;
    ::kill(pid_, signal);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  pid_t pid_ = -1;
  std::string display_;
};

}  // namespace tessera_test
