// A private Weston compositor (Debian's weston, headless backend) for tests that present to
// Wayland (wsi_wayland_test.cpp) or run real Wayland programs (vkcube_test.cpp): its socket lives
// in a runtime directory of its own (XDG_RUNTIME_DIR), so it never meets a desktop's compositor.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "xvfb.h"

namespace tessera_test {

// weston's path on PATH, or empty.
inline std::string findWeston() { return findOnPath("weston"); }

class Weston {
 public:
  explicit Weston(const std::string& binary) {
    char dir[] = "/tmp/tessera-weston-XXXXXX";  // mode 0700, as XDG_RUNTIME_DIR must be
    if (!mkdtemp(dir)) return;
    runtimeDir_ = dir;
    const std::string socket = "wayland-tessera";
    pid_ = fork();
    if (pid_ == 0) {
      int null = open("/dev/null", O_WRONLY);
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
      setenv("XDG_RUNTIME_DIR", dir, 1);
      unsetenv("WAYLAND_DISPLAY");
      unsetenv("DISPLAY");
      // The default desktop shell (kiosk-shell never sends frame callbacks to the test's
      // window); --idle-time=0 never blanks the output.
      const std::string socketArg = "--socket=" + socket;
      execl(binary.c_str(), "weston", "--backend=headless-backend.so", "--idle-time=0",
            socketArg.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    // Ready once the socket exists (Weston creates it after its backend and shell are up).
    const std::string path = runtimeDir_ + "/" + socket;
    for (int i = 0; i < 200 && pid_ > 0; ++i) {
      struct stat st;
      if (stat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) {
        socketPath_ = path;
        break;
      }
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;  // it exited
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  ~Weston() {
    stop(SIGTERM);  // Weston ends its own helper clients (the desktop shell's panel, keyboard)
    if (!runtimeDir_.empty()) std::filesystem::remove_all(runtimeDir_);
  }
  // The absolute path of its socket (wl_display_connect takes one), or empty if it did not start.
  const std::string& socketPath() const { return socketPath_; }
  const std::string& runtimeDir() const { return runtimeDir_; }
  // Ends the compositor at once (SIGKILL: no goodbye to its clients), as a crash would.
  // Its own clients (the shell's panel, the keyboard) then see the connection close and exit.
  void kill() { stop(SIGKILL); }

 private:
  void stop(int signal) {
    if (pid_ <= 0) return;
    ::kill(pid_, signal);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  pid_t pid_ = -1;
  std::string runtimeDir_, socketPath_;
};

}  // namespace tessera_test
