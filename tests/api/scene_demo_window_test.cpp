// The README's scene demo shows its picture in a window when a display is available (issue 13,
// scope 6): on a private Xvfb, through Tessera's own swapchain, with the validation layer on. The
// presented frame (Tessera's frame capture) must be the picture the demo wrote to its PNG, byte
// for byte (a UNORM swapchain and transfer copies only: nothing may change a value). Without a
// display the demo writes its PNG and opens no window. Skipped, saying so, without Xvfb.
#include <gtest/gtest.h>

#include <filesystem>

#include "program_run.h"
#include "wsi_fixture.h"
#include "xvfb.h"

namespace tessera_test {
namespace {

// Runs the demo small and quick on Tessera alone, with `env`; its output.
std::string runDemo(const std::string& dir, std::vector<std::string> env, int* status) {
  env.insert(env.end(), {"VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation", "TESSERA_CAPTURE_DIR=" + dir + "/frames",
                         "TESSERA_CAPTURE_FRAMES=1"});
  const std::string log = dir + "/demo.log";
  *status = runProgram({TESSERA_SCENE_DEMO, "--out", dir + "/scene.png", "--size", "320", "180", "--grid", "4", "--frames",
                        "1", "--lavapipe", "none", "--window", "1"},
                       env, log, 180);
  return fileText(log);
}

TEST(SceneDemoWindow, ShowsThePictureThroughTesserasSwapchainWhenThereIsADisplay) {
  const std::string xvfb = findXvfb();
  if (xvfb.empty()) GTEST_SKIP() << "Xvfb is not installed (Debian package xvfb)";
  Xvfb server(xvfb, {});
  ASSERT_FALSE(server.display().empty()) << "Xvfb did not start";
  char dirTemplate[] = "/tmp/tessera-scene-window-XXXXXX";
  ASSERT_NE(mkdtemp(dirTemplate), nullptr);
  const std::string dir = dirTemplate;
  int status = -1;
  const std::string out = runDemo(dir, {"DISPLAY=" + server.display()}, &status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("window: shown on " + server.display()), std::string::npos) << out;
  EXPECT_EQ(out.find("Validation"), std::string::npos) << out;
  const Png written = readPng(dir + "/scene.png"), shown = readPng(dir + "/frames/frame-000001.png");
  std::filesystem::remove_all(dir);
  ASSERT_EQ(written.width, 320u) << "no PNG written";
  ASSERT_EQ(shown.width, written.width) << "no frame presented";
  ASSERT_EQ(shown.height, written.height);
  EXPECT_TRUE(shown.rgb == written.rgb) << "the window does not show the rendered picture";
}

TEST(SceneDemoWindow, WritesThePngAndOpensNoWindowWithoutADisplay) {
  char dirTemplate[] = "/tmp/tessera-scene-window-XXXXXX";
  ASSERT_NE(mkdtemp(dirTemplate), nullptr);
  const std::string dir = dirTemplate;
  int status = -1;
  // An empty DISPLAY (putenv cannot remove the test's own): the demo treats it as none.
  const std::string out = runDemo(dir, {"DISPLAY=", "WAYLAND_DISPLAY="}, &status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_EQ(out.find("window:"), std::string::npos) << out;
  EXPECT_EQ(readPng(dir + "/scene.png").width, 320u) << "no PNG written";
  EXPECT_FALSE(std::filesystem::exists(dir + "/frames")) << "something was presented";
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tessera_test
