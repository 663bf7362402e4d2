// One Vulkan instance that sees Tessera and lavapipe together (VK_DRIVER_FILES lists both
// manifests), with the validation layer and a messenger that records every error: tests that
// compare Tessera's output with lavapipe's in the same process (draw_test, etc2_blit_test).
#pragma once

#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <string>
#include <vector>

namespace tessera_test {

class DualDriverInstance {
 public:
  // Creates the instance; on failure `instance` stays VK_NULL_HANDLE and the test has failed.
  DualDriverInstance();
  // Destroys the messenger and the instance, restores VK_DRIVER_FILES, and fails the test on
  // any recorded validation error.
  ~DualDriverInstance();
  DualDriverInstance(const DualDriverInstance&) = delete;
  DualDriverInstance& operator=(const DualDriverInstance&) = delete;

  // Does not fail the test on errors naming `messageId` (a VUID): for a known false positive
  // of the installed validation layer, which the caller names and explains.
  void tolerate(const char* messageId) { tolerated_.push_back(messageId); }

  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice tessera = VK_NULL_HANDLE;
  VkPhysicalDevice lavapipe = VK_NULL_HANDLE;  // null when lavapipe is not installed

 private:
  std::string savedDriverFiles_;
  std::vector<std::string> errors_;
  std::vector<std::string> tolerated_;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
};

}  // namespace tessera_test
