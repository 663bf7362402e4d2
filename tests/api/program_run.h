// Running unmodified real programs from the tests (vkcube_test.cpp, zink_test.cpp,
// ffmpeg_vulkan_test.cpp, mpv_test.cpp): to completion, or in the background while the test
// reads their window back. Their output goes to a log file the test can show on failure.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace tessera_test {

// Forks and execs `argv` with `env` added to the environment (an entry replaces the test's own
// value), stdout and stderr to `log`; SIGALRM ends it after `seconds`. The child's pid (or -1).
inline pid_t startProgram(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                          const std::string& log, unsigned seconds) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
    for (const std::string& e : env) putenv(const_cast<char*>(e.c_str()));
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    alarm(seconds);  // a hung program ends the child, not the test
    execv(args[0], args.data());
    _exit(127);
  }
  return pid;
}

// Runs `argv` to its end (see startProgram); its exit status, or -1 when it did not exit
// normally within `seconds`.
inline int runProgram(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                      const std::string& log, unsigned seconds = 120) {
  const pid_t pid = startProgram(argv, env, log, seconds);
  if (pid < 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

// A program running in the background for as long as this object lives (at most `seconds`).
class BackgroundProgram {
 public:
  BackgroundProgram(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                    const std::string& log, unsigned seconds = 120)
      : pid_(startProgram(argv, env, log, seconds)) {}
  ~BackgroundProgram() { stop(); }
  BackgroundProgram(const BackgroundProgram&) = delete;
  BackgroundProgram& operator=(const BackgroundProgram&) = delete;

  // Whether it is still running.
  bool running() {
    if (pid_ <= 0) return false;
    int status;
    if (waitpid(pid_, &status, WNOHANG) == 0) return true;
    pid_ = -1;
    return false;
  }
  // Ends it (SIGTERM, then SIGKILL after two seconds) and waits for it.
  void stop() {
    if (!running()) return;
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 20 && running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
  }

 private:
  pid_t pid_;
};

// The manifests of the two drivers a real program is run on: Tessera's (the test's own
// VK_DRIVER_FILES, set by CTest) and lavapipe's, the oracle (empty when not installed).
inline std::string tesseraManifest() {
  const char* ours = std::getenv("VK_DRIVER_FILES");
  return ours ? ours : "";
}
inline std::string lavapipeManifest() {
  const char* path = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
  return access(path, R_OK) == 0 ? path : "";
}

// A file's whole contents (empty when unreadable).
inline std::string fileText(const std::string& path) {
  std::stringstream s;
  s << std::ifstream(path).rdbuf();
  return s.str();
}

// The validation layer's error lines in a program's log, less one mistake of libplacebo's (ffmpeg's
// libplacebo filter, mpv): it names objects and labels command buffers with VK_EXT_debug_utils
// commands without enabling the extension, which the layer reports on every driver (lavapipe too).
inline std::vector<std::string> validationErrors(const std::string& log) {
  std::vector<std::string> errors;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("Validation Error") == std::string::npos) continue;
    const size_t call = line.find("Attempted to call vk");
    const bool debugUtilsUnenabled =
        call != std::string::npos && line.find("but its required extension VK_EXT_debug_utils has not been enabled") != std::string::npos &&
        line.find("DebugUtils", call) != std::string::npos;
    if (!debugUtilsUnenabled) errors.push_back(line);
  }
  return errors;
}

// The validation messages' ids in a program's log ("Validation Error: [ VUID-... ]"): an error a
// program commits on lavapipe as well is the program's own (zink leaves objects alive at
// vkDestroyDevice on both drivers), so tests of such programs fail only on ids Tessera alone gets.
inline std::set<std::string> validationIds(const std::string& log) {
  std::set<std::string> ids;
  const std::string marker = "Validation Error: [ ";
  for (size_t at = log.find(marker); at != std::string::npos; at = log.find(marker, at + 1)) {
    const size_t begin = at + marker.size(), end = log.find(" ]", begin);
    ids.insert(log.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
  }
  return ids;
}

}  // namespace tessera_test
