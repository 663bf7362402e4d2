#include "dual_driver.h"

#include <cstdlib>
#include <cstring>
#include <fstream>

namespace tessera_test {
namespace {

const char* kLavapipeIcd = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
    static_cast<std::vector<std::string>*>(user)->push_back(data->pMessage ? data->pMessage : "?");
  return VK_FALSE;
}

}  // namespace

DualDriverInstance::DualDriverInstance() {
  const char* ours = std::getenv("VK_DRIVER_FILES");
  if (!ours) {
    ADD_FAILURE() << "VK_DRIVER_FILES is not set";
    return;
  }
  savedDriverFiles_ = ours;
  const bool haveLavapipe = std::ifstream(kLavapipeIcd).good();
  const std::string both = savedDriverFiles_ + (haveLavapipe ? std::string(":") + kLavapipeIcd : "");
  setenv("VK_DRIVER_FILES", both.c_str(), 1);

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  const char* layers[] = {"VK_LAYER_KHRONOS_validation"};
  const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
  mci.pfnUserCallback = onMessage;
  mci.pUserData = &errors_;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, &mci};
  ici.pApplicationInfo = &app;
  ici.enabledLayerCount = 1;
  ici.ppEnabledLayerNames = layers;
  ici.enabledExtensionCount = 1;
  ici.ppEnabledExtensionNames = extensions;
  if (vkCreateInstance(&ici, nullptr, &instance) != VK_SUCCESS) {
    ADD_FAILURE() << "vkCreateInstance failed";
    instance = VK_NULL_HANDLE;
    return;
  }
  auto createMessenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
  if (createMessenger(instance, &mci, nullptr, &messenger_) != VK_SUCCESS) ADD_FAILURE() << "no debug messenger";
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance, &count, devices.data());
  for (VkPhysicalDevice pd : devices) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(pd, &p);
    if (std::strncmp(p.deviceName, "Tessera", 7) == 0) tessera = pd;
    else if (std::strncmp(p.deviceName, "llvmpipe", 8) == 0) lavapipe = pd;
  }
}

DualDriverInstance::~DualDriverInstance() {
  if (instance) {
    if (messenger_) {
      auto destroyMessenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
          vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
      destroyMessenger(instance, messenger_, nullptr);
    }
    vkDestroyInstance(instance, nullptr);
  }
  // Later tests in this process see Tessera alone again.
  if (!savedDriverFiles_.empty()) setenv("VK_DRIVER_FILES", savedDriverFiles_.c_str(), 1);
  for (const std::string& e : errors_) {
    bool known = false;
    for (const std::string& id : tolerated_) known = known || e.find("[ " + id + " ]") != std::string::npos;
    if (!known) ADD_FAILURE() << "validation: " << e;
  }
}

}  // namespace tessera_test
