// The generated name -> function table: sorted, aliases share their core implementation, and
// what Tessera does not implement is NULL rather than a stub.
#include <gtest/gtest.h>

#include <cstring>

#include "entrypoint_table.h"
#include "extensions.h"
#include "instance.h"
#include "physical_device.h"

namespace {

using tessera::findEntryPoint;

TEST(EntryPointTable, IsSortedForBinarySearch) {
  auto table = tessera::entryPoints();
  for (size_t i = 1; i < table.size(); ++i) EXPECT_LT(std::strcmp(table[i - 1].name, table[i].name), 0);
}

TEST(EntryPointTable, PromotedAliasesPointAtTheCoreFunction) {
  const auto* core = findEntryPoint("vkCmdCopyBuffer2");
  const auto* khr = findEntryPoint("vkCmdCopyBuffer2KHR");
  ASSERT_TRUE(core && khr);
  EXPECT_NE(core->function, nullptr);
  EXPECT_EQ(core->function, khr->function);
  EXPECT_EQ(core->coreMinor, 3);
  EXPECT_EQ(khr->coreMinor, -1);
}

TEST(EntryPointTable, LevelsComeFromTheFirstParameter) {
  EXPECT_EQ(findEntryPoint("vkCreateInstance")->level, tessera::EntryPointLevel::Global);
  EXPECT_EQ(findEntryPoint("vkEnumeratePhysicalDevices")->level, tessera::EntryPointLevel::Instance);
  EXPECT_EQ(findEntryPoint("vkGetPhysicalDeviceProperties")->level, tessera::EntryPointLevel::PhysicalDevice);
  EXPECT_EQ(findEntryPoint("vkCmdFillBuffer")->level, tessera::EntryPointLevel::Device);
}

TEST(EntryPointTable, EveryCoreCommandIsImplementedAndOthersAreAbsent) {
  // Core 1.0-1.3 commands must all be returned (the CTS's api.version_check.entry_points);
  // commands of extensions Tessera does not offer are not in the table at all.
  for (const char* name : {"vkCmdDraw", "vkCmdBeginRendering", "vkCreateSamplerYcbcrConversion", "vkCmdSetPrimitiveRestartEnable"}) {
    const auto* e = findEntryPoint(name);
    ASSERT_NE(e, nullptr) << name;
    EXPECT_NE(e->function, nullptr) << name;
  }
  EXPECT_EQ(findEntryPoint("vkCmdDrawMeshTasksEXT"), nullptr);
  EXPECT_EQ(findEntryPoint("vkNotACommand"), nullptr);
}

// Every extension icd/supported_extensions.txt lists has all its commands implemented: none is
// silently left off at run time for a missing one (extensionOffered). Those that need features
// are offered exactly when supportedFeatures() has them.
TEST(ExtensionTable, EveryListedExtensionIsImplemented) {
  auto exts = tessera::supportedExtensions();
  for (const auto& e : exts)
    for (const char* c : e.commands) {
      const auto* entry = findEntryPoint(c);
      ASSERT_NE(entry, nullptr) << c << " of " << e.name;
      EXPECT_NE(entry->function, nullptr) << c << " of " << e.name;
    }
  const tessera::FeatureSet features = tessera::supportedFeatures();
  for (size_t i = 0; i < exts.size(); ++i)
    EXPECT_EQ(tessera::extensionOffered(i, exts[i].isDevice ? &features : nullptr),
              tessera::extensionFeaturesPresent(i, features))
        << exts[i].name;
}

TEST(ExtensionTable, FeatureGatesFollowTheFeatures) {
  tessera::FeatureSet features = tessera::supportedFeatures();
  const int multiview = tessera::findExtension("VK_KHR_multiview", &features);
  EXPECT_EQ(multiview >= 0, features.multiview);
  features.multiview = true;
  EXPECT_GE(tessera::findExtension("VK_KHR_multiview", &features), 0);
  features.shaderFloat16 = features.shaderInt8 = false;
  EXPECT_LT(tessera::findExtension("VK_KHR_shader_float16_int8", &features), 0);
  features.shaderInt8 = true;  // either of the two
  EXPECT_GE(tessera::findExtension("VK_KHR_shader_float16_int8", &features), 0);
  // An instance extension is not a device extension and the other way round.
  EXPECT_LT(tessera::findExtension("VK_KHR_get_physical_device_properties2", &features), 0);
  EXPECT_GE(tessera::findExtension("VK_KHR_get_physical_device_properties2", nullptr), 0);
  EXPECT_LT(tessera::findExtension("VK_KHR_maintenance1", nullptr), 0);
}

}  // namespace
