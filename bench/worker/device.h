// The benchmark worker's Vulkan context: one instance and device on whatever driver the loader
// finds (the orchestrator selects it with VK_DRIVER_FILES), every device-level function taken
// from vkGetDeviceProcAddr so that a command the driver does not provide is a NULL pointer the
// workload can test (and report "unsupported") rather than a crash in the loader's trampoline.
//
// Objects created through this class are destroyed with it, in reverse order, so workloads do
// not write clean-up code.
#pragma once

#include <vulkan/vulkan.h>

#include <chrono>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

// The driver lacks something the workload needs: reported as "unsupported", not as a failure.
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Anything else that goes wrong: reported as "failed" with this message.
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const char* resultName(VkResult r);
void check(VkResult r, const char* what);
#define BENCH_VK(expr) ::bench::check((expr), #expr)

// Every device-level command the workloads use. Add a command here to use it.
#define BENCH_DEVICE_FUNCTIONS(X)                                                              \
  X(DestroyDevice) X(GetDeviceQueue) X(DeviceWaitIdle) X(QueueSubmit) X(QueueWaitIdle)         \
  X(AllocateMemory) X(FreeMemory) X(MapMemory) X(UnmapMemory)                                  \
  X(CreateBuffer) X(DestroyBuffer) X(GetBufferMemoryRequirements) X(BindBufferMemory)          \
  X(CreateImage) X(DestroyImage) X(GetImageMemoryRequirements) X(BindImageMemory)              \
  X(CreateCommandPool) X(DestroyCommandPool) X(AllocateCommandBuffers) X(FreeCommandBuffers)   \
  X(BeginCommandBuffer) X(EndCommandBuffer) X(ResetCommandBuffer)                              \
  X(CreateQueryPool) X(DestroyQueryPool) X(GetQueryPoolResults)                                \
  X(CmdResetQueryPool) X(CmdWriteTimestamp) X(CmdPipelineBarrier)                              \
  X(CmdCopyBuffer) X(CmdFillBuffer) X(CmdCopyImage) X(CmdBlitImage)                            \
  X(CmdCopyBufferToImage) X(CmdCopyImageToBuffer)                                              \
  X(CreateShaderModule) X(DestroyShaderModule)                                                 \
  X(CreateDescriptorSetLayout) X(DestroyDescriptorSetLayout)                                   \
  X(CreatePipelineLayout) X(DestroyPipelineLayout)                                             \
  X(CreateDescriptorPool) X(DestroyDescriptorPool) X(AllocateDescriptorSets)                   \
  X(UpdateDescriptorSets)                                                                      \
  X(CreateComputePipelines) X(DestroyPipeline)                                                 \
  X(CreatePipelineCache) X(DestroyPipelineCache) X(GetPipelineCacheData)                       \
  X(CmdBindPipeline) X(CmdBindDescriptorSets) X(CmdPushConstants) X(CmdDispatch)              \
  X(CreateImageView) X(DestroyImageView) X(CreateGraphicsPipelines)                            \
  X(CmdBeginRendering) X(CmdEndRendering) X(CmdSetViewport) X(CmdSetScissor)                   \
  X(CmdBindVertexBuffers) X(CmdBindIndexBuffer) X(CmdDraw) X(CmdDrawIndexed)                   \
  X(CreateSampler) X(DestroySampler)

struct DeviceFunctions {
#define BENCH_DECLARE(name) PFN_vk##name name = nullptr;
  BENCH_DEVICE_FUNCTIONS(BENCH_DECLARE)
#undef BENCH_DECLARE
};

// The commands every compute workload needs (shader module .. dispatch).
extern const std::initializer_list<const char*> kComputeCommands;

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  void* mapped = nullptr;  // host-visible, coherent, mapped for the buffer's lifetime
  template <typename T>
  T* as() const { return static_cast<T*>(mapped); }
};

struct Image {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkExtent3D extent{};
  VkFormat format = VK_FORMAT_UNDEFINED;
};

// One timed repetition: wall-clock seconds around submit..idle and, when the driver supports
// timestamp queries, the seconds between the timestamps written at the start and end of the
// command buffer (negative when there are none).
struct Sample {
  double wallSeconds = 0;
  double deviceSeconds = -1;
};

class Device {
 public:
  // validation: enable VK_LAYER_KHRONOS_validation and fail on its errors (a development aid
  // for the benchmark's own Vulkan usage; never used for timings).
  explicit Device(bool validation);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // Throws Unsupported naming the first command the driver does not provide.
  void require(std::initializer_list<const char*> commands) const;
  void requireFormatFeatures(VkFormat format, VkFormatFeatureFlags features) const;
  // Throws Unsupported when the device lacks the feature (`enabled` holds those the device was
  // created with: every one of them it offers).
  void requireFeature(VkBool32 VkPhysicalDeviceFeatures::*feature, const char* name) const;
  VkPhysicalDeviceFeatures enabled{};  // samplerAnisotropy, textureCompressionBC, tessellationShader, geometryShader where offered

  // Host-visible, coherent, mapped; destroyed with the device.
  Buffer createBuffer(VkDeviceSize size, VkBufferUsageFlags usage);
  // Device memory of the first suitable type; destroyed with the device.
  Image createImage(const VkImageCreateInfo& info);
  // Registers a clean-up action run (in reverse order) when the device is destroyed.
  void onDestroy(std::function<void()> f) { cleanups_.push_back(std::move(f)); }

  VkCommandBuffer allocateCommandBuffer();
  void begin(VkCommandBuffer cb, VkCommandBufferUsageFlags flags = 0);
  // Records the timestamp query reset and the start timestamp; endTimed records the end one.
  void beginTimed(VkCommandBuffer cb);
  void endTimed(VkCommandBuffer cb);
  // Submits, waits for the queue to go idle, and reads the timestamps if beginTimed was used.
  Sample submitAndWait(VkCommandBuffer cb, bool timed = false);
  // Records with `record` into a fresh command buffer, submits it and waits (not timed).
  void oneShot(const std::function<void(VkCommandBuffer)>& record);

  // Barrier from all earlier commands' writes to all later commands' reads and writes.
  void fullBarrier(VkCommandBuffer cb);
  // Layout transition of the first `levels` levels and `layers` layers of a colour image.
  void imageLayout(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to, uint32_t levels = 1,
                   uint32_t layers = 1);

  uint32_t validationErrors() const { return validationErrors_; }
  const std::string& firstValidationError() const { return firstValidationError_; }

  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceDriverProperties driverProperties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceMemoryProperties memoryProperties{};
  DeviceFunctions vk;
  bool hasTimestamps = false;
  bool dynamicRendering = false;  // the Vulkan 1.3 feature, enabled when the driver offers it
  uint32_t timestampValidBits = 0;

 private:
  static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                  VkDebugUtilsMessageTypeFlagsEXT,
                                                  const VkDebugUtilsMessengerCallbackDataEXT*, void*);
  uint32_t memoryType(uint32_t typeBits, VkMemoryPropertyFlags wanted) const;

  std::vector<std::function<void()>> cleanups_;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkQueryPool timestamps_ = VK_NULL_HANDLE;
  uint32_t validationErrors_ = 0;
  std::string firstValidationError_;
};

inline double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace bench
