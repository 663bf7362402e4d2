// Buffer device addresses (core 1.2, required by 1.3) and physical storage buffer pointers in
// a compute shader, through the loader with validation: vkGetBufferDeviceAddress, pointers in
// push constants and in memory, pointer arithmetic.
#include <cstring>

#include "compute_fixture.h"

namespace tessera_test {
namespace {

class BufferDeviceAddress : public ComputeTest {
 protected:
  struct AddressedBuffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    uint8_t* mapped = nullptr;
    VkDeviceAddress address = 0;
  };
  AddressedBuffer make(VkDeviceSize size) {
    AddressedBuffer b;
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    EXPECT_EQ(vkCreateBuffer(device, &bci, nullptr, &b.buffer), VK_SUCCESS);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, b.buffer, &req);
    VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO, nullptr,
                                    VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &flags, req.size, 0};
    EXPECT_EQ(vkAllocateMemory(device, &mai, nullptr, &b.memory), VK_SUCCESS);
    EXPECT_EQ(vkBindBufferMemory(device, b.buffer, b.memory, 0), VK_SUCCESS);
    void* p;
    EXPECT_EQ(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &p), VK_SUCCESS);
    b.mapped = static_cast<uint8_t*>(p);
    VkBufferDeviceAddressInfo ai{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, nullptr, b.buffer};
    b.address = vkGetBufferDeviceAddress(device, &ai);
    return b;
  }
  using ComputeTest::destroy;
  void destroy(AddressedBuffer& b) {
    vkDestroyBuffer(device, b.buffer, nullptr);
    vkFreeMemory(device, b.memory, nullptr);
  }
};

TEST_F(BufferDeviceAddress, PointersInPushConstantsAndMemory) {
  const uint32_t n = 200;
  AddressedBuffer src = make(n * 4), dst = make(n * 4), list = make(8 * 16);
  EXPECT_NE(src.address, 0u);
  for (uint32_t i = 0; i < n; ++i) {
    float v = float(i) + 0.5f;
    std::memcpy(src.mapped + 4 * i, &v, 4);
  }
  // Node k at offset 16k: {next address, value}; values 1, 10, 100, 1000, 10000, ...
  uint32_t values[8] = {1, 10, 100, 1000, 10000, 100000, 7, 7};
  for (uint32_t k = 0; k < 8; ++k) {
    uint64_t next = list.address + 16 * ((k + 1) % 8);
    std::memcpy(list.mapped + 16 * k, &next, 8);
    std::memcpy(list.mapped + 16 * k + 8, &values[k], 4);
  }
  Program p = createProgram(loadCorpusShader("buffer_reference"), 0, 32);
  ASSERT_EQ(p.result, VK_SUCCESS);
  struct {
    uint64_t src, dst, list;
    uint32_t n, pad;
  } push{src.address, dst.address, list.address, n, 0};
  std::vector<uint8_t> pushBytes(sizeof(push));
  std::memcpy(pushBytes.data(), &push, sizeof(push));
  run(p, {}, pushBytes, (n + 63) / 64);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t sum = 0;
    for (uint32_t k = 0; k <= i % 5; ++k) sum += values[k];
    float out;
    std::memcpy(&out, dst.mapped + 4 * i, 4);
    ASSERT_EQ(out, (float(i) + 0.5f) * 2.0f + float(sum)) << i;
  }
  destroy(p);
  destroy(src);
  destroy(dst);
  destroy(list);
}

}  // namespace
}  // namespace tessera_test
