// The extensions Tessera lists (spec: "Extensions"): which are offered, that every command of
// every offered extension resolves, and that a device enabling all of them is valid. The
// registry's view comes from extension_commands.h, generated from vk.xml by this directory's
// own script (not by the driver's generator).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "bare_device.h"
#include "extension_commands.h"
#include "vulkan_fixture.h"

namespace tessera_test {
namespace {

// The promoted extensions Tessera must list today. A promoted extension that needs a feature
// Tessera lacks (VK_EXT_texture_compression_astc_hdr) must not be listed.
// Changing what is offered means changing this list, on purpose.
const std::set<std::string> kExpectedPromoted = {
    // instance
    "VK_KHR_get_physical_device_properties2", "VK_KHR_device_group_creation",
    "VK_KHR_external_memory_capabilities", "VK_KHR_external_semaphore_capabilities",
    "VK_KHR_external_fence_capabilities",
    // device, promoted to 1.1
    "VK_KHR_16bit_storage", "VK_KHR_bind_memory2", "VK_KHR_dedicated_allocation",
    "VK_KHR_descriptor_update_template", "VK_KHR_device_group", "VK_KHR_external_fence", "VK_KHR_external_memory",
    "VK_KHR_external_semaphore", "VK_KHR_get_memory_requirements2", "VK_KHR_maintenance1", "VK_KHR_maintenance2",
    "VK_KHR_maintenance3", "VK_KHR_multiview", "VK_KHR_relaxed_block_layout", "VK_KHR_sampler_ycbcr_conversion",
    "VK_KHR_shader_draw_parameters",
    "VK_KHR_storage_buffer_storage_class", "VK_KHR_variable_pointers",
    // 1.2
    "VK_KHR_8bit_storage", "VK_KHR_buffer_device_address", "VK_KHR_create_renderpass2",
    "VK_KHR_depth_stencil_resolve", "VK_KHR_draw_indirect_count", "VK_KHR_driver_properties", "VK_KHR_image_format_list",
    "VK_KHR_imageless_framebuffer", "VK_KHR_sampler_mirror_clamp_to_edge", "VK_KHR_separate_depth_stencil_layouts",
    "VK_KHR_shader_atomic_int64", "VK_KHR_shader_float16_int8", "VK_KHR_shader_float_controls",
    "VK_KHR_shader_subgroup_extended_types", "VK_KHR_spirv_1_4", "VK_KHR_timeline_semaphore",
    "VK_KHR_uniform_buffer_standard_layout", "VK_KHR_vulkan_memory_model", "VK_EXT_descriptor_indexing",
    "VK_EXT_host_query_reset", "VK_EXT_sampler_filter_minmax", "VK_EXT_scalar_block_layout",
    "VK_EXT_separate_stencil_usage", "VK_EXT_shader_viewport_index_layer",
    // 1.3
    "VK_KHR_copy_commands2", "VK_KHR_dynamic_rendering", "VK_KHR_format_feature_flags2", "VK_KHR_maintenance4",
    "VK_KHR_shader_integer_dot_product", "VK_KHR_shader_non_semantic_info", "VK_KHR_shader_terminate_invocation",
    "VK_KHR_synchronization2", "VK_KHR_zero_initialize_workgroup_memory", "VK_EXT_4444_formats",
    "VK_EXT_ycbcr_2plane_444_formats",
    "VK_EXT_extended_dynamic_state", "VK_EXT_extended_dynamic_state2", "VK_EXT_image_robustness",
    "VK_EXT_inline_uniform_block", "VK_EXT_pipeline_creation_cache_control", "VK_EXT_pipeline_creation_feedback",
    "VK_EXT_private_data", "VK_EXT_shader_demote_to_helper_invocation", "VK_EXT_subgroup_size_control",
    "VK_EXT_texel_buffer_alignment", "VK_EXT_tooling_info"};

std::vector<std::string> names(const std::vector<VkExtensionProperties>& props) {
  std::vector<std::string> out;
  for (const auto& p : props) out.push_back(p.extensionName);
  return out;
}

std::vector<VkExtensionProperties> instanceExtensions() {
  uint32_t n = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> props(n);
  vkEnumerateInstanceExtensionProperties(nullptr, &n, props.data());
  props.resize(n);
  return props;
}

std::vector<VkExtensionProperties> deviceExtensions(VkPhysicalDevice pd) {
  uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> props(n);
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, props.data());
  props.resize(n);
  return props;
}

// Whether a block's dependency ("", a core version, or extensions joined by ',' or '+') holds
// for a 1.3 instance and device with `enabled` extensions. Conservatively, every name must hold.
bool dependencyHolds(const std::string& depends, const std::set<std::string>& enabled) {
  size_t at = 0;
  while (at < depends.size()) {
    size_t end = depends.find_first_of(",+", at);
    if (end == std::string::npos) end = depends.size();
    const std::string name = depends.substr(at, end - at);
    if (name.rfind("VK_VERSION_", 0) != 0 && !enabled.count(name)) return false;
    at = end + 1;
  }
  return true;
}

// A device with `extensions` enabled and no features.
VkDevice createDeviceWithEverything(VkPhysicalDevice pd, const std::vector<const char*>& extensions) {
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = uint32_t(extensions.size());
  dci.ppEnabledExtensionNames = extensions.data();
  VkDevice dev = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateDevice(pd, &dci, nullptr, &dev), VK_SUCCESS);
  return dev;
}

// The fixture's instance enables every offered instance extension, so that device extensions
// that need one (VK_KHR_swapchain: VK_KHR_surface) can be enabled too.
class ExtensionsTest : public VulkanTest {
 protected:
  void SetUp() override {
    for (const auto& n : names(instanceExtensions())) {
      if (n == VK_EXT_DEBUG_UTILS_EXTENSION_NAME) continue;  // the fixture enables it anyway
      instanceNames_.push_back(n);
    }
    for (const auto& n : instanceNames_) extraInstanceExtensions.push_back(n.c_str());
    VulkanTest::SetUp();
  }
  std::vector<std::string> instanceNames_;
};

TEST_F(ExtensionsTest, PromotedExtensionsAreListedExactlyWhenTheirFunctionalityWorks) {
  std::set<std::string> offered;
  for (const auto& n : names(instanceExtensions())) offered.insert(n);
  for (const auto& n : names(deviceExtensions(physicalDevice))) offered.insert(n);
  std::set<std::string> promoted;
  for (const char* p : kPromotedExtensions)
    if (offered.count(p)) promoted.insert(p);
  for (const auto& e : kExpectedPromoted) EXPECT_TRUE(promoted.count(e)) << e << " is not listed";
  for (const auto& p : promoted) EXPECT_TRUE(kExpectedPromoted.count(p)) << p << " is listed but not expected";
}

TEST_F(ExtensionsTest, PromotedExtensionsNeedingMissingFeaturesAreNotListed) {
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v11};
  VkPhysicalDeviceFeatures2 f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
  vkGetPhysicalDeviceFeatures2(physicalDevice, &f);
  std::set<std::string> offered;
  for (const auto& n : names(deviceExtensions(physicalDevice))) offered.insert(n);
  // Spec "Feature Requirements": each of these extensions requires the feature.
  EXPECT_EQ(offered.count("VK_KHR_multiview") != 0, bool(v11.multiview));
  EXPECT_EQ(offered.count("VK_KHR_variable_pointers") != 0, bool(v11.variablePointersStorageBuffer));
  EXPECT_EQ(offered.count("VK_KHR_shader_draw_parameters") != 0, bool(v11.shaderDrawParameters));
  EXPECT_EQ(offered.count("VK_KHR_sampler_ycbcr_conversion") != 0, bool(v11.samplerYcbcrConversion));
  EXPECT_EQ(offered.count("VK_KHR_draw_indirect_count") != 0, bool(v12.drawIndirectCount));
  EXPECT_EQ(offered.count("VK_EXT_descriptor_indexing") != 0, bool(v12.descriptorIndexing));
  EXPECT_EQ(offered.count("VK_KHR_sampler_mirror_clamp_to_edge") != 0, bool(v12.samplerMirrorClampToEdge));
  EXPECT_EQ(offered.count("VK_EXT_sampler_filter_minmax") != 0, bool(v12.samplerFilterMinmax));
  EXPECT_EQ(offered.count("VK_EXT_shader_viewport_index_layer") != 0,
            v12.shaderOutputViewportIndex && v12.shaderOutputLayer);
  // descriptorIndexing stands for the minimum set of descriptor indexing features.
  if (v12.descriptorIndexing) {
    EXPECT_TRUE(v12.shaderSampledImageArrayNonUniformIndexing && v12.shaderStorageBufferArrayNonUniformIndexing &&
                v12.descriptorBindingSampledImageUpdateAfterBind && v12.descriptorBindingPartiallyBound &&
                v12.runtimeDescriptorArray && v12.descriptorBindingUpdateUnusedWhilePending);
  }
}

// A device enabling every offered device extension is valid (the validation layer is silent)
// and every command of every enabled extension resolves through vkGetDeviceProcAddr.
TEST_F(ExtensionsTest, ADeviceEnablingEveryExtensionIsValidAndResolvesEveryCommand) {
  std::vector<std::string> offered = names(deviceExtensions(physicalDevice));
  std::vector<const char*> ptrs;
  std::set<std::string> enabled;
  for (const auto& n : offered) {
    ptrs.push_back(n.c_str());
    enabled.insert(n);
  }
  enabled.insert(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);  // the fixture's instance enables it
  enabled.insert(instanceNames_.begin(), instanceNames_.end());
  VkDevice dev = createDeviceWithEverything(physicalDevice, ptrs);
  ASSERT_NE(dev, VK_NULL_HANDLE);
  size_t checked = 0;
  for (const ExtensionCommand& c : kExtensionCommands) {
    if (!c.deviceLevel || !enabled.count(c.extension) || !dependencyHolds(c.depends, enabled)) continue;
    EXPECT_NE(vkGetDeviceProcAddr(dev, c.command), nullptr) << c.command << " of " << c.extension;
    ++checked;
  }
  EXPECT_GT(checked, 50u);
  vkDestroyDevice(dev, nullptr);
}

// The same without layers: the loader hands out exactly what the driver returned, so a NULL
// from Tessera shows. Instance-level commands too, with every offered instance extension on.
TEST(ExtensionsWithoutLayers, EveryCommandOfEveryOfferedExtensionResolves) {
  std::vector<std::string> instanceNames = names(instanceExtensions());
  std::vector<const char*> instancePtrs;
  for (const auto& n : instanceNames) instancePtrs.push_back(n.c_str());
  std::vector<std::string> deviceNames;
  {
    BareDevice probe;
    ASSERT_NE(probe.physicalDevice, VK_NULL_HANDLE);
    deviceNames = names(deviceExtensions(probe.physicalDevice));
  }
  std::vector<const char*> devicePtrs;
  std::set<std::string> enabled(instanceNames.begin(), instanceNames.end());
  for (const auto& n : deviceNames) {
    devicePtrs.push_back(n.c_str());
    enabled.insert(n);
  }
  BareDevice bare(instancePtrs, devicePtrs);
  ASSERT_NE(bare.device, VK_NULL_HANDLE);
  size_t checked = 0;
  for (const ExtensionCommand& c : kExtensionCommands) {
    if (!enabled.count(c.extension) || !dependencyHolds(c.depends, enabled)) continue;
    if (c.deviceLevel) EXPECT_NE(vkGetDeviceProcAddr(bare.device, c.command), nullptr) << c.command << " of " << c.extension;
    else EXPECT_NE(vkGetInstanceProcAddr(bare.instance, c.command), nullptr) << c.command << " of " << c.extension;
    ++checked;
  }
  EXPECT_GT(checked, 60u);
}

}  // namespace
}  // namespace tessera_test
