// A real windowed program, unmodified: Debian's vkcube (vulkan-tools) on a private Xvfb server
// through the loader, with VK_LAYER_KHRONOS_validation, presenting through VK_KHR_xcb_surface
// for a few dozen frames. Its frame is read back with Tessera's frame capture
// (TESSERA_CAPTURE_DIR). What a user would notice: the program fails, validation complains, or
// the window shows no cube. Skipped, saying so, without vkcube or Xvfb.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "wsi_fixture.h"
#include "xvfb.h"

namespace tessera_test {
namespace {

std::string findOnPath(const std::string& name) {
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

// Runs `argv` with `env` added to the environment, stdout and stderr to `log`; its exit status
// (-1 when it did not exit normally within 120 s).
int run(const std::vector<std::string>& argv, const std::vector<std::string>& env, const std::string& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
    for (const std::string& e : env) putenv(const_cast<char*>(e.c_str()));
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    alarm(120);  // a hung program ends the child, not the test
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

TEST(RealPrograms, VkcubeDrawsItsCubeThroughXcbWithValidationSilent) {
  const std::string vkcube = findOnPath("vkcube"), xvfb = findXvfb();
  if (vkcube.empty()) GTEST_SKIP() << "vkcube is not installed (Debian package vulkan-tools)";
  if (xvfb.empty()) GTEST_SKIP() << "Xvfb is not installed (Debian package xvfb)";
  Xvfb server(xvfb, {});
  ASSERT_FALSE(server.display().empty()) << "Xvfb did not start";
  char dirTemplate[] = "/tmp/tessera-vkcube-XXXXXX";
  ASSERT_NE(mkdtemp(dirTemplate), nullptr);
  const std::string dir = dirTemplate, log = dir + "/vkcube.log";
  constexpr int kFrames = 40;
  const int status = run({vkcube, "--c", std::to_string(kFrames)},
                         {"DISPLAY=" + server.display(), "VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation",
                          "TESSERA_CAPTURE_DIR=" + dir, "TESSERA_CAPTURE_FRAMES=" + std::to_string(kFrames)},
                         log);
  std::stringstream output;
  output << std::ifstream(log).rdbuf();
  EXPECT_EQ(status, 0) << output.str();
  EXPECT_EQ(output.str().find("Validation"), std::string::npos) << output.str();
  EXPECT_NE(output.str().find("Tessera"), std::string::npos) << "vkcube did not select Tessera:\n" << output.str();

  // The last frame: vkcube clears to a uniform dark grey and draws the textured cube (grey
  // sides with the teal LunarG logo) in the middle of its 500x500 window.
  char name[32];
  std::snprintf(name, sizeof name, "/frame-%06d.png", kFrames);
  const Png png = readPng(dir + name);
  ASSERT_EQ(png.width, 500u) << dir + name;
  ASSERT_EQ(png.height, 500u);
  const uint8_t* corner = png.at(0, 0);
  for (auto [x, y] : {std::pair{499u, 0u}, {0u, 499u}, {499u, 499u}})
    EXPECT_EQ(std::memcmp(png.at(x, y), corner, 3), 0) << "the background is not uniform";
  uint32_t cube = 0, teal = 0;
  for (uint32_t y = 0; y < png.height; ++y)
    for (uint32_t x = 0; x < png.width; ++x) {
      const uint8_t* p = png.at(x, y);
      cube += std::memcmp(p, corner, 3) != 0;
      teal += p[1] > p[0] + 20 && p[2] > p[0] + 20;
    }
  // The cube covers roughly a quarter to a half of the window; its logo a part of that.
  EXPECT_GT(cube, 500u * 500u / 8) << "no cube drawn";
  EXPECT_LT(cube, 500u * 500u * 3 / 4);
  EXPECT_GT(teal, 2000u) << "no texture on the cube";
  std::remove((dir + name).c_str());
  std::remove(log.c_str());
  rmdir(dir.c_str());
}

}  // namespace
}  // namespace tessera_test
