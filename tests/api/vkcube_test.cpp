// A real windowed program, unmodified: Debian's vkcube (vulkan-tools) on a private Xvfb server
// (VK_KHR_xcb_surface) and vkcube-wayland on a private Weston (VK_KHR_wayland_surface), through
// the loader with VK_LAYER_KHRONOS_validation, for a few dozen frames. The last frame is read
// back with Tessera's frame capture (TESSERA_CAPTURE_DIR). What a user would notice: the program
// fails, validation complains, or the window shows no cube. Skipped, saying so, without vkcube,
// Xvfb or Weston. (Debian's vkcube has no Xlib mode.)
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "frame_compare.h"
#include "program_run.h"
#include "weston.h"
#include "wsi_fixture.h"
#include "x_last_frame.h"
#include "xvfb.h"

namespace tessera_test {
namespace {

// Runs `vkcube` (a vkcube binary) for kFrames frames with `env` (its window system's
// variables) and validation on, and checks its exit, its output and its last frame (which
// `lastFrame`, when given, receives; `frameBefore` gets the one before it).
constexpr int kFrames = 40;
void expectVkcubeDrawsItsCube(const std::string& vkcube, std::vector<std::string> env, Png* lastFrame = nullptr,
                              Png* frameBefore = nullptr) {
  char dirTemplate[] = "/tmp/tessera-vkcube-XXXXXX";
  ASSERT_NE(mkdtemp(dirTemplate), nullptr);
  const std::string dir = dirTemplate, log = dir + "/vkcube.log";
  env.insert(env.end(), {"VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation", "TESSERA_CAPTURE_DIR=" + dir,
                         "TESSERA_CAPTURE_FRAMES=" + std::to_string(kFrames - 1) + "," + std::to_string(kFrames)});
  const int status = runProgram({vkcube, "--c", std::to_string(kFrames)}, env, log);
  std::stringstream output;
  output << std::ifstream(log).rdbuf();
  EXPECT_EQ(status, 0) << output.str();
  EXPECT_EQ(output.str().find("Validation"), std::string::npos) << output.str();
  EXPECT_NE(output.str().find("Tessera"), std::string::npos) << "vkcube did not select Tessera:\n" << output.str();

  // The last frame: vkcube clears to a uniform dark grey and draws the textured cube (grey
  // sides with the teal LunarG logo) in the middle of its 500x500 window.
  char name[32], nameBefore[32];
  std::snprintf(name, sizeof name, "/frame-%06d.png", kFrames);
  std::snprintf(nameBefore, sizeof nameBefore, "/frame-%06d.png", kFrames - 1);
  const Png png = readPng(dir + name);
  if (frameBefore) *frameBefore = readPng(dir + nameBefore);
  std::remove((dir + name).c_str());
  std::remove((dir + nameBefore).c_str());
  std::remove(log.c_str());
  rmdir(dir.c_str());
  if (lastFrame) *lastFrame = png;
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

// The same frame on lavapipe, the oracle: vkcube turns the cube by a fixed angle per frame, so
// frame kFrames is the same picture on any driver. lavapipe has no frame capture, so its window's
// last picture is kept through Composite (x_last_frame.h). On a loaded machine that picture is
// now and then frame kFrames - 1 (measured: 4 of 22 runs with six at once; Tessera's frame
// kFrames - 1 then matches it to the pixel): Mesa's X11 swapchain let vkcube exit before its last
// present reached the window. So the oracle is compared with Tessera's frame kFrames, or with
// frame kFrames - 1 when that is the frame lavapipe's window shows. Tolerance (frame_compare.h): the cube's
// and the logo's edges move with rasterization and filtering freedoms; elsewhere the linearly
// filtered texture may differ by 2/255 in a channel (two rounding steps: filter weights,
// "Texel Filtering", and the UNORM store, "Fixed-Point Data Conversions").
TEST(RealPrograms, VkcubeFrameThroughXcbMatchesLavapipes) {
  const std::string vkcube = findOnPath("vkcube"), xvfb = findXvfb();
  if (vkcube.empty()) GTEST_SKIP() << "vkcube is not installed (Debian package vulkan-tools)";
  if (xvfb.empty()) GTEST_SKIP() << "Xvfb is not installed (Debian package xvfb)";
  if (lavapipeManifest().empty()) GTEST_SKIP() << "lavapipe is not installed (mesa-vulkan-drivers)";
  Xvfb server(xvfb, {});
  ASSERT_FALSE(server.display().empty()) << "Xvfb did not start";
  Png tessera, tesseraBefore;
  expectVkcubeDrawsItsCube(vkcube, {"DISPLAY=" + server.display()}, &tessera, &tesseraBefore);
  int status = -1;
  const std::string log = std::string(testing::TempDir()) + "/vkcube-lavapipe.log";
  const Png lavapipe = lastFrameOfWindow(server.display(), {vkcube, "--c", std::to_string(kFrames)},
                                         {"DISPLAY=" + server.display(), "VK_DRIVER_FILES=" + lavapipeManifest()}, log, &status);
  EXPECT_EQ(status, 0) << fileText(log);
  std::remove(log.c_str());
  ASSERT_EQ(lavapipe.width, tessera.width) << "lavapipe's window is not vkcube's";
  ASSERT_EQ(lavapipe.height, tessera.height);
  ASSERT_EQ(tesseraBefore.width, tessera.width);
  ASSERT_EQ(tesseraBefore.height, tessera.height);
  const bool lavapipeShowsTheFrameBefore =
      !compareFrames(tessera, lavapipe, 2).matches() && compareFrames(tesseraBefore, lavapipe, 2).matches();
  if (lavapipeShowsTheFrameBefore)
    expectFramesMatch(tesseraBefore, lavapipe, 2, "vkcube frame " + std::to_string(kFrames - 1));
  else
    expectFramesMatch(tessera, lavapipe, 2, "vkcube frame " + std::to_string(kFrames));
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
