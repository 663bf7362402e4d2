// A real windowed program, unmodified: Debian's vkcube (vulkan-tools) on a private Xvfb server
// (VK_KHR_xcb_surface) and vkcube-wayland on a private Weston (VK_KHR_wayland_surface), through
// the loader with VK_LAYER_KHRONOS_validation, for a few dozen frames. The last frame is read
// back with Tessera's frame capture (TESSERA_CAPTURE_DIR). What a user would notice: the program
// fails, validation complains, or the window shows no cube. Skipped, saying so, without vkcube,
// Xvfb or Weston. (Debian's vkcube has no Xlib mode.)
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "weston.h"
#include "wsi_fixture.h"
#include "xvfb.h"

namespace tessera_test {
namespace {

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

// Runs `vkcube` (a vkcube binary) for kFrames frames with `env` (its window system's
// variables) and validation on, and checks its exit, its output and its last frame.
void expectVkcubeDrawsItsCube(const std::string& vkcube, std::vector<std::string> env) {
  char dirTemplate[] = "/tmp/tessera-vkcube-XXXXXX";
  ASSERT_NE(mkdtemp(dirTemplate), nullptr);
  const std::string dir = dirTemplate, log = dir + "/vkcube.log";
  constexpr int kFrames = 40;
  env.insert(env.end(), {"VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation", "TESSERA_CAPTURE_DIR=" + dir,
                         "TESSERA_CAPTURE_FRAMES=" + std::to_string(kFrames)});
  const int status = run({vkcube, "--c", std::to_string(kFrames)}, env, log);
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
  std::remove((dir + name).c_str());
  std::remove(log.c_str());
  rmdir(dir.c_str());
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
}

TEST(RealPrograms, VkcubeDrawsItsCubeThroughXcbWithValidationSilent) {
  const std::string vkcube = findOnPath("vkcube"), xvfb = findXvfb();
  if (vkcube.empty()) GTEST_SKIP() << "vkcube is not installed (Debian package vulkan-tools)";
  if (xvfb.empty()) GTEST_SKIP() << "Xvfb is not installed (Debian package xvfb)";
  Xvfb server(xvfb, {});
  ASSERT_FALSE(server.display().empty()) << "Xvfb did not start";
  expectVkcubeDrawsItsCube(vkcube, {"DISPLAY=" + server.display()});
}

// Debian's vulkan-tools builds vkcube-wayland (xdg-shell) beside the xcb vkcube.
TEST(RealPrograms, VkcubeDrawsItsCubeThroughWaylandWithValidationSilent) {
  const std::string vkcube = findOnPath("vkcube-wayland"), weston = findWeston();
  if (vkcube.empty()) GTEST_SKIP() << "vkcube-wayland is not installed (Debian package vulkan-tools)";
  if (weston.empty()) GTEST_SKIP() << "weston is not installed (Debian package weston)";
  Weston server(weston);
  ASSERT_FALSE(server.socketPath().empty()) << "Weston did not start";
  expectVkcubeDrawsItsCube(vkcube, {"XDG_RUNTIME_DIR=" + server.runtimeDir(), "WAYLAND_DISPLAY=" + server.socketPath()});
}

}  // namespace
}  // namespace tessera_test
