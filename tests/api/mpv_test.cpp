// A video player, unmodified: Debian's mpv with its libplacebo renderer (--vo=gpu-next
// --gpu-api=vulkan) shows the first frame of a generated clip (ffmpeg's testsrc2, YUV 4:2:0,
// 320x240) paused, in an X11 window on a private Xvfb, on Tessera and on lavapipe, through the
// loader with VK_LAYER_KHRONOS_validation. The two windows, read back with GetImage, are compared.
// libplacebo passes over CPU devices unless one is named, so the test names each driver's device
// (--vulkan-device), as a user of a software renderer would.
//
// Tolerance (frame_compare.h): 1 in each channel where lavapipe's picture is locally flat; the
// colour bars' edges and the clip's gradients, where chroma upsampling filters and the YUV to
// RGB arithmetic stack their rounding, may differ more. Skipped, saying so, without mpv, ffmpeg,
// Xvfb or lavapipe.
#include <gtest/gtest.h>

#include <filesystem>

#include "dual_driver.h"
#include "frame_compare.h"
#include "program_run.h"
#include "x_window_readback.h"
#include "xvfb.h"

namespace tessera_test {
namespace {

// The device names mpv is to pick: {lavapipe's, Tessera's}.
std::vector<std::string> deviceNames() {
  DualDriverInstance both;
  std::vector<std::string> names;
  for (VkPhysicalDevice device : {both.lavapipe, both.tessera}) {
    VkPhysicalDeviceProperties properties{};
    if (device) vkGetPhysicalDeviceProperties(device, &properties);
    names.push_back(properties.deviceName);
  }
  return names;
}

TEST(RealProgramsMpv, GpuNextOnVulkanShowsLavapipesFrame) {
  const std::string mpv = findOnPath("mpv"), ffmpeg = findOnPath("ffmpeg");
  if (mpv.empty()) GTEST_SKIP() << "mpv is not installed (Debian package mpv)";
  if (ffmpeg.empty()) GTEST_SKIP() << "ffmpeg is not installed (Debian package ffmpeg)";
  if (findXvfb().empty()) GTEST_SKIP() << "Xvfb is not installed (Debian package xvfb)";
  if (lavapipeManifest().empty()) GTEST_SKIP() << "lavapipe is not installed (mesa-vulkan-drivers)";
  const std::vector<std::string> names = deviceNames();
  ASSERT_FALSE(names[0].empty() || names[1].empty());

  char dirTemplate[] = "/tmp/tessera-mpv-XXXXXX";
  ASSERT_NE(mkdtemp(dirTemplate), nullptr);
  const std::string dir = dirTemplate, clip = dir + "/clip.mkv";
  ASSERT_EQ(runProgram({ffmpeg, "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10", "-frames:v",
                        "10", "-pix_fmt", "yuv420p", "-y", clip},
                       {}, dir + "/ffmpeg.log"),
            0)
      << fileText(dir + "/ffmpeg.log");
  const std::string manifests[2] = {lavapipeManifest(), tesseraManifest()};
  Png shown[2];
  std::string logs[2];
  for (int driver = 0; driver < 2; ++driver) {
    const std::string log = dir + "/mpv" + std::to_string(driver) + ".log";
    {
      // A server per run: the first run's window cannot linger into the second's read-back;
      // -noreset: the test's own short connections must not make the server reset under the program.
      Xvfb server(findXvfb(), {"-noreset"});
      ASSERT_FALSE(server.display().empty()) << "Xvfb did not start";
      BackgroundProgram player({mpv, "--no-config", "--vo=gpu-next", "--gpu-api=vulkan", "--vulkan-device=" + names[driver],
                                "--pause", "--keep-open=yes", "--osd-level=0", "--no-audio", clip},
                               {"DISPLAY=" + server.display(), "VK_DRIVER_FILES=" + manifests[driver],
                                "VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation", "XDG_RUNTIME_DIR=" + dir,
                                "TESSERA_CAPTURE_DIR=" + dir + "/frames", "TESSERA_CAPTURE_FRAMES=1"},
                               log);
      shown[driver] = waitForSteadyWindow(server.display(), 90);
    }
    logs[driver] = fileText(log);
  }
  const bool presentedOnTessera = std::filesystem::exists(dir + "/frames/frame-000001.png");
  std::filesystem::remove_all(dir);
  EXPECT_TRUE(presentedOnTessera) << "mpv did not present through Tessera's swapchain\n" << logs[1];
  for (int driver = 0; driver < 2; ++driver) {
    // mpv, stopped while it runs, sometimes destroys a swapchain semaphore that its last
    // submission still waits on (seen on lavapipe and Tessera alike, about one run in three):
    // its own teardown race, not a driver's error.
    std::vector<std::string> errors = validationErrors(logs[driver]);
    std::erase_if(errors, [](const std::string& line) {
      return line.find("VUID-vkDestroySemaphore-semaphore-01137") != std::string::npos;
    });
    EXPECT_TRUE(errors.empty()) << (driver ? "Tessera" : "lavapipe") << ":\n" << logs[driver];
  }
  expectFramesMatch(shown[1], shown[0], 1, "mpv --vo=gpu-next");
}

}  // namespace
}  // namespace tessera_test
