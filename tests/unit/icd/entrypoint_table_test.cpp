// The generated name -> function table: sorted, aliases share their core implementation, and
// what Tessera does not implement is NULL rather than a stub.
#include <gtest/gtest.h>

#include <cstring>

#include "entrypoint_table.h"

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

}  // namespace
