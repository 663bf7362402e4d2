// Buffer transfer commands (spec: "Copy Commands", "Clear Commands": vkCmdFillBuffer,
// vkCmdUpdateBuffer), checked against results computed here.
#include <numeric>
#include <random>

#include "vulkan_fixture.h"

namespace tessera_test {
namespace {

using TransferBufferTest = VulkanTest;

TEST_F(TransferBufferTest, CopyBufferRegionsMoveExactlyTheirBytes) {
  const VkDeviceSize size = 4096;
  auto src = createBuffer(size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  auto dst = createBuffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  for (VkDeviceSize i = 0; i < size; ++i) src.mapped[i] = uint8_t(i * 7 + 3);
  std::memset(dst.mapped, 0xAB, size);
  VkBufferCopy regions[] = {{0, 100, 50}, {1000, 2000, 333}};
  submitAndWait([&](VkCommandBuffer cb) { vkCmdCopyBuffer(cb, src.buffer, dst.buffer, 2, regions); });
  for (VkDeviceSize i = 0; i < size; ++i) {
    uint8_t expect = 0xAB;
    for (const auto& r : regions)
      if (i >= r.dstOffset && i < r.dstOffset + r.size) expect = src.mapped[r.srcOffset + (i - r.dstOffset)];
    ASSERT_EQ(dst.mapped[i], expect) << "byte " << i;
  }
  destroy(src);
  destroy(dst);
}

TEST_F(TransferBufferTest, LargeCopy2IsExactAcrossThreadChunks) {
  const VkDeviceSize size = 24 << 20;  // above the parallel threshold, odd tail
  auto src = createBuffer(size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  auto dst = createBuffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  std::mt19937 rng(42);
  for (VkDeviceSize i = 0; i < size; i += 4) *reinterpret_cast<uint32_t*>(src.mapped + i) = rng();
  VkBufferCopy2 region{VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 12, 4, size - 12 - 1};
  VkCopyBufferInfo2 info{VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2, nullptr, src.buffer, dst.buffer, 1, &region};
  submitAndWait([&](VkCommandBuffer cb) { vkCmdCopyBuffer2(cb, &info); });
  EXPECT_EQ(std::memcmp(dst.mapped + 4, src.mapped + 12, size - 13), 0);
  destroy(src);
  destroy(dst);
}

TEST_F(TransferBufferTest, FillWholeSizeRoundsDownToWords) {
  const VkDeviceSize size = 1030;
  auto dst = createBuffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  std::memset(dst.mapped, 0, size);
  submitAndWait([&](VkCommandBuffer cb) { vkCmdFillBuffer(cb, dst.buffer, 8, VK_WHOLE_SIZE, 0xDEADBEEF); });
  for (VkDeviceSize i = 0; i < 8; ++i) EXPECT_EQ(dst.mapped[i], 0);
  // (1030 - 8) rounded down to a multiple of 4 is 1020 bytes: 8..1027 filled, 1028.. untouched.
  for (VkDeviceSize i = 8; i < 1028; i += 4) ASSERT_EQ(*reinterpret_cast<uint32_t*>(dst.mapped + i), 0xDEADBEEFu);
  EXPECT_EQ(dst.mapped[1028], 0);
  EXPECT_EQ(dst.mapped[1029], 0);
  destroy(dst);
}

TEST_F(TransferBufferTest, UpdateBufferUsesTheDataAtRecordTime) {
  auto dst = createBuffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  std::memset(dst.mapped, 0, 256);
  uint32_t data[16];
  std::iota(data, data + 16, 100u);
  VkCommandBuffer cb = beginCommands();
  vkCmdUpdateBuffer(cb, dst.buffer, 64, sizeof(data), data);
  std::fill(data, data + 16, 0u);  // spec: the data is copied when the command is recorded
  endSubmitWait(cb);
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(reinterpret_cast<uint32_t*>(dst.mapped + 64)[i], 100 + i);
  destroy(dst);
}

}  // namespace
}  // namespace tessera_test
