// OpenGL programs, unmodified, through Mesa's zink (OpenGL on Vulkan, Debian's libgl1-mesa-dri)
// on Tessera and on lavapipe, under a private Xvfb, through the loader with
// VK_LAYER_KHRONOS_validation. Zink takes a CPU Vulkan device only when software rendering is
// asked for (LIBGL_ALWAYS_SOFTWARE=1 with MESA_LOADER_DRIVER_OVERRIDE=zink), and then presents
// through the driver's own VK_KHR_xcb_surface swapchain (its "kopper" path), so Tessera's frame
// capture sees the frames too. (GALLIUM_DRIVER=zink instead takes Mesa's older software path,
// whose window stays black on both drivers.)
//
// What zink makes of Tessera today (Mesa 22.3.6, glxinfo -B): OpenGL 4.6 core and compatibility,
// OpenGL ES 3.2 (OpenGL 2.1 / ES 2.0 until VK_EXT_transform_feedback was offered, 4.0 until
// multiViewport, 4.5 until pipeline statistics queries and anisotropic filtering); it no longer
// warns of missing base requirements (VK_EXT_line_rasterization was the last). es2tri (EGL, OpenGL ES
// 2) is not compared here. The gears demos animate by the clock, so they cannot be compared
// frame for frame.
// Skipped, saying so, without Xvfb, the Mesa programs (mesa-utils) or lavapipe.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <sys/stat.h>

#include <filesystem>

#include "frame_compare.h"
#include "program_run.h"
#include "x_window_readback.h"
#include "xvfb.h"

namespace tessera_test {
namespace {

// A scratch directory for one test's logs and captured frames, removed at the end.
struct ScratchDir {
  ScratchDir() {
    char dirTemplate[] = "/tmp/tessera-zink-XXXXXX";
    if (mkdtemp(dirTemplate)) path = dirTemplate;
  }
  ~ScratchDir() {
    if (!path.empty()) std::filesystem::remove_all(path);
  }
  std::string path;
};

// The environment that puts an OpenGL program on zink over the Vulkan driver `manifest`.
std::vector<std::string> zinkEnvironment(const std::string& display, const std::string& manifest, const ScratchDir& dir) {
  return {"DISPLAY=" + display, "VK_DRIVER_FILES=" + manifest, "MESA_LOADER_DRIVER_OVERRIDE=zink",
          "LIBGL_ALWAYS_SOFTWARE=1", "VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation",
          "XDG_RUNTIME_DIR=" + dir.path, "TESSERA_CAPTURE_DIR=" + dir.path + "/frames", "TESSERA_CAPTURE_FRAMES=1-5"};
}

// Skips the test (saying why) unless Xvfb, lavapipe and `program` are all installed.
#define SKIP_UNLESS_INSTALLED(program)                                                                      \
  if (findXvfb().empty()) GTEST_SKIP() << "Xvfb is not installed (Debian package xvfb)";                  \
  if (lavapipeManifest().empty()) GTEST_SKIP() << "lavapipe is not installed (mesa-vulkan-drivers)";      \
  if (program.empty()) GTEST_SKIP() << "the Mesa demo is not installed (Debian package mesa-utils)";       \
  if (access("/usr/lib/x86_64-linux-gnu/dri/zink_dri.so", R_OK) != 0)                                     \
  GTEST_SKIP() << "zink is not installed (Debian package libgl1-mesa-dri)"

// glxinfo: zink accepts Tessera as its Vulkan device and builds an OpenGL context on it.
TEST(RealProgramsZink, GlxinfoRunsOnTesseraWithValidationSilent) {
  const std::string glxinfo = findOnPath("glxinfo");
  SKIP_UNLESS_INSTALLED(glxinfo);
  Xvfb server(findXvfb(), {});
  ASSERT_FALSE(server.display().empty()) << "Xvfb did not start";
  ScratchDir dir;
  const std::string log = dir.path + "/glxinfo.log";
  EXPECT_EQ(runProgram({glxinfo, "-B"}, zinkEnvironment(server.display(), tesseraManifest(), dir), log), 0) << fileText(log);
  const std::string out = fileText(log);
  EXPECT_NE(out.find("OpenGL renderer string: zink (Tessera"), std::string::npos) << out;
  // OpenGL 3.0 or later: zink offers it only with VK_EXT_transform_feedback (2.1 without); with
  // conditional rendering and depth clip enable too it reaches 4.0 on Mesa 22.3.6, 4.5 with
  // several viewports (GL_ARB_viewport_array, OpenGL 4.1), and 4.6 with pipeline statistics
  // queries and anisotropic filtering (both required by OpenGL 4.6).
  const size_t at = out.find("OpenGL version string: ");
  ASSERT_NE(at, std::string::npos) << out;
  const char* version = out.c_str() + at + std::strlen("OpenGL version string: ");
  const int major = std::atoi(version);
  const char* dot = std::strchr(version, '.');
  const int minor = dot ? std::atoi(dot + 1) : 0;
  EXPECT_GE(major * 10 + minor, 46) << out;
  EXPECT_EQ(out.find("Validation"), std::string::npos) << out;
  // Zink's base requirements (its last missing one was VK_EXT_line_rasterization) are all met.
  EXPECT_EQ(out.find("doesn't support base Zink requirements"), std::string::npos) << out;
}

// glxdemo (a yellow square drawn with glRectf on a grey clear, redrawn on every expose) shows
// the same picture on Tessera as on lavapipe, and on Tessera it went through Tessera's swapchain.
TEST(RealProgramsZink, GlxdemoShowsLavapipesPicture) {
  const std::string glxdemo = findOnPath("glxdemo");
  SKIP_UNLESS_INSTALLED(glxdemo);
  ScratchDir dir;
  Png shown[2];
  const std::string manifests[2] = {lavapipeManifest(), tesseraManifest()};
  for (int driver = 0; driver < 2; ++driver) {
    const std::string log = dir.path + "/glxdemo" + std::to_string(driver) + ".log";
    {
      // A server per run: the first run's window cannot linger into the second's read-back;
      // -noreset: the test's own short connections must not make the server reset under the program.
      Xvfb server(findXvfb(), {"-noreset"});
      ASSERT_FALSE(server.display().empty()) << "Xvfb did not start";
      BackgroundProgram program({glxdemo}, zinkEnvironment(server.display(), manifests[driver], dir), log);
      shown[driver] = waitForSteadyWindow(server.display(), 60);
    }
    EXPECT_EQ(fileText(log).find("Validation"), std::string::npos) << fileText(log);
  }
  EXPECT_TRUE(std::filesystem::exists(dir.path + "/frames/frame-000001.png"))
      << "zink did not present through Tessera's swapchain";
  // The square's edges lie on pixel centres (glRectf(-0.75..0.75) in a 300x300 window): which
  // side owns them is the implementation's choice; the flat colours are exact in both.
  expectFramesMatch(shown[1], shown[0], 0, "glxdemo through zink");
}

// glmark2 --validate: the benchmark's own check of each scene's rendered pixels against the
// values its authors recorded (an oracle independent of both drivers). Every scene lavapipe
// validates must validate on Tessera too; none may fail. Zink breaks validation rules on both
// drivers here (objects alive at vkDestroyDevice; on lavapipe more), so only errors Tessera
// alone gets fail the test.
TEST(RealProgramsZink, Glmark2ValidatesTheScenesLavapipeValidates) {
  const std::string glmark2 = findOnPath("glmark2");
  if (glmark2.empty()) GTEST_SKIP() << "glmark2 is not installed (Debian package glmark2-x11)";
  SKIP_UNLESS_INSTALLED(glmark2);
  ScratchDir dir;
  std::string logs[2];
  const std::string manifests[2] = {lavapipeManifest(), tesseraManifest()};
  for (int driver = 0; driver < 2; ++driver) {
    Xvfb server(findXvfb(), {"-noreset"});
    ASSERT_FALSE(server.display().empty()) << "Xvfb did not start";
    const std::string log = dir.path + "/glmark2-" + std::to_string(driver) + ".log";
    EXPECT_EQ(runProgram({glmark2, "--validate"}, zinkEnvironment(server.display(), manifests[driver], dir), log, 300), 0)
        << fileText(log);
    logs[driver] = fileText(log);
  }
  auto count = [](const std::string& log, const std::string& what) {
    size_t n = 0;
    for (size_t at = log.find(what); at != std::string::npos; at = log.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_GT(count(logs[0], "Validation: Success"), 0u) << logs[0];
  EXPECT_EQ(count(logs[1], "Validation: Success"), count(logs[0], "Validation: Success")) << logs[1];
  EXPECT_EQ(count(logs[1], "Validation: Failure"), 0u) << logs[1];
  EXPECT_NE(logs[1].find("GL_RENDERER:    zink (Tessera"), std::string::npos) << logs[1];
  const std::set<std::string> lavapipeIds = validationIds(logs[0]);
  for (const std::string& id : validationIds(logs[1]))
    EXPECT_TRUE(lavapipeIds.count(id)) << "a validation error on Tessera only: " << id;
}

}  // namespace
}  // namespace tessera_test
