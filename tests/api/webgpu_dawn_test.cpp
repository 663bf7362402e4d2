// A WebGPU implementation, unmodified: Google's Dawn (dawn.node, the npm package `webgpu`) runs
// webgpu/dawn_checks.mjs on Tessera through the loader with VK_LAYER_KHRONOS_validation: an
// adapter (Dawn refuses Vulkan devices that lack BC or ETC2+ASTC compression or one of its
// required features), compute, a textured draw, a BC1 texture, depth and blending, and 32-bit
// indices beyond 2^24, each against values computed from the specifications (Dawn refuses
// Debian 12's lavapipe, so it cannot be the oracle here).
//
// Opt-in: Dawn is not a Debian package. `npm install --prefix DIR webgpu` and set
// TESSERA_WEBGPU_MODULES=DIR/node_modules; skipped, saying so, otherwise or without node.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "program_run.h"
#include "xvfb.h"

namespace tessera_test {
namespace {

TEST(RealProgramsWebGpu, DawnComputesRendersAndSamplesBc1WithValidationSilent) {
  const char* modules = std::getenv("TESSERA_WEBGPU_MODULES");
  if (!modules || !std::filesystem::exists(std::filesystem::path(modules) / "webgpu" / "index.js"))
    GTEST_SKIP() << "set TESSERA_WEBGPU_MODULES to a node_modules folder holding the npm package webgpu "
                    "(npm install --prefix DIR webgpu) to run Dawn on Tessera";
  const std::string node = findOnPath("node");
  if (node.empty()) GTEST_SKIP() << "node is not installed (Debian package nodejs)";

  char dirTemplate[] = "/tmp/tessera-webgpu-XXXXXX";
  ASSERT_NE(mkdtemp(dirTemplate), nullptr);
  const std::string dir = dirTemplate, log = dir + "/dawn.log";
  // Dawn's Vulkan back end asks for XDG_RUNTIME_DIR (for Wayland); a private one keeps its
  // complaint out of the log.
  const int status = runProgram({node, TESSERA_WEBGPU_CHECKS, modules},
                                {"VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation", "XDG_RUNTIME_DIR=" + dir}, log, 300);
  const std::string output = fileText(log);
  EXPECT_EQ(status, 0) << output;
  for (const char* check : {"adapter", "compute", "textured draw", "bc1 texture", "depth and blend", "32-bit indices",
                            "no device errors"})
    EXPECT_NE(output.find(std::string("PASS ") + check + "\n"), std::string::npos) << check << " did not pass:\n" << output;
  EXPECT_TRUE(validationErrors(output).empty()) << output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tessera_test
