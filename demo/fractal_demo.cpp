// The README's demo: renders the Mandelbrot set with a compute shader on whatever driver
// VK_DRIVER_FILES selects, through the real loader, and saves it as a PNG. Prints the device,
// the SIMD width (Tessera's subgroup size), the pipeline compile time and the dispatch time.
//   fractal_demo [output.png] [width height]
#include <vulkan/vulkan.h>

#include "png_writer.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

namespace {

#define CHECK(expr)                                             \
  do {                                                          \
    VkResult r_ = (expr);                                       \
    if (r_ != VK_SUCCESS) {                                     \
      std::fprintf(stderr, "%s failed: %d\n", #expr, int(r_));  \
      std::exit(1);                                             \
    }                                                           \
  } while (0)

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }


uint32_t memoryType(VkPhysicalDevice pd, uint32_t bits, VkMemoryPropertyFlags want) {
  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(pd, &mp);
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want) return i;
  std::fprintf(stderr, "no suitable memory type\n");
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  const char* output = argc > 1 ? argv[1] : "fractal.png";
  const uint32_t W = argc > 3 ? uint32_t(std::atoi(argv[2])) : 1920, H = argc > 3 ? uint32_t(std::atoi(argv[3])) : 1080;

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "tessera-fractal-demo";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  VkInstance instance;
  CHECK(vkCreateInstance(&ici, nullptr, &instance));
  uint32_t count = 1;
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  if (vkEnumeratePhysicalDevices(instance, &count, &pd) < 0 || count == 0) {
    std::fprintf(stderr, "no Vulkan device\n");
    return 1;
  }
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(pd, &props);
  std::printf("device:        %s\n", props.properties.deviceName);
  std::printf("SIMD width:    %u lanes (subgroup size)\n", subgroup.subgroupSize);

  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  VkDevice device;
  CHECK(vkCreateDevice(pd, &dci, nullptr, &device));
  VkQueue queue;
  vkGetDeviceQueue(device, 0, 0, &queue);

  // The picture (storage image) and a host buffer to copy it into.
  VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ii.imageType = VK_IMAGE_TYPE_2D;
  ii.format = VK_FORMAT_R8G8B8A8_UNORM;
  ii.extent = {W, H, 1};
  ii.mipLevels = ii.arrayLayers = 1;
  ii.samples = VK_SAMPLE_COUNT_1_BIT;
  ii.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage image;
  CHECK(vkCreateImage(device, &ii, nullptr, &image));
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(device, image, &req);
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size,
                           memoryType(pd, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
  VkDeviceMemory imageMemory;
  CHECK(vkAllocateMemory(device, &mai, nullptr, &imageMemory));
  CHECK(vkBindImageMemory(device, image, imageMemory, 0));
  VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vi.image = image;
  vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vi.format = ii.format;
  vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view;
  CHECK(vkCreateImageView(device, &vi, nullptr, &view));
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = VkDeviceSize(W) * H * 4;
  bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer buffer;
  CHECK(vkCreateBuffer(device, &bci, nullptr, &buffer));
  vkGetBufferMemoryRequirements(device, buffer, &req);
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = memoryType(pd, req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  VkDeviceMemory bufferMemory;
  CHECK(vkAllocateMemory(device, &mai, nullptr, &bufferMemory));
  CHECK(vkBindBufferMemory(device, buffer, bufferMemory, 0));

  // Pipeline.
  std::ifstream in(TESSERA_DEMO_SPV, std::ios::binary);
  std::vector<char> code((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  VkShaderModuleCreateInfo smi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, code.size(),
                               reinterpret_cast<const uint32_t*>(code.data())};
  VkShaderModule module;
  CHECK(vkCreateShaderModule(device, &smi, nullptr, &module));
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo dli{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &binding};
  VkDescriptorSetLayout setLayout;
  CHECK(vkCreateDescriptorSetLayout(device, &dli, nullptr, &setLayout));
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
  VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout, 1, &range};
  VkPipelineLayout layout;
  CHECK(vkCreatePipelineLayout(device, &pli, nullptr, &layout));
  VkComputePipelineCreateInfo cpi{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpi.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main"};
  cpi.layout = layout;
  VkPipeline pipeline;
  auto compileStart = Clock::now();
  CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpi, nullptr, &pipeline));
  std::printf("compile:       %.1f ms (vkCreateComputePipelines)\n", msSince(compileStart));

  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1};
  VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &poolSize};
  VkDescriptorPool descriptorPool;
  CHECK(vkCreateDescriptorPool(device, &dpi, nullptr, &descriptorPool));
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, descriptorPool, 1, &setLayout};
  VkDescriptorSet set;
  CHECK(vkAllocateDescriptorSets(device, &dsai, &set));
  VkDescriptorImageInfo imageInfo{VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, &imageInfo};
  vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  CHECK(vkCreateCommandPool(device, &cpci, nullptr, &pool));
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cb;
  CHECK(vkAllocateCommandBuffers(device, &cbai, &cb));
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  CHECK(vkCreateFence(device, &fci, nullptr, &fence));
  auto submit = [&](auto&& record) {
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    CHECK(vkBeginCommandBuffer(cb, &bi));
    record();
    CHECK(vkEndCommandBuffer(cb));
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    CHECK(vkQueueSubmit(queue, 1, &si, fence));
    CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));
    CHECK(vkResetFences(device, 1, &fence));
  };
  auto barrier = [&](VkImageLayout from, VkImageLayout to, VkAccessFlags src, VkAccessFlags dst, VkPipelineStageFlags s,
                     VkPipelineStageFlags d) {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, nullptr, src, dst, from, to,
                           VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED, image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    vkCmdPipelineBarrier(cb, s, d, 0, 0, nullptr, 0, nullptr, 1, &b);
  };
  struct {
    float center[2] = {-0.743643887f, 0.131825904f};
    float scale;
    uint32_t maxIterations = 1024;
  } view_;
  view_.scale = 0.000014628f * 1920.0f / float(W);

  submit([&] {
    barrier(VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0, VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
  });
  auto dispatchStart = Clock::now();
  submit([&] {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(view_), &view_);
    vkCmdDispatch(cb, (W + 15) / 16, (H + 15) / 16, 1);
  });
  std::printf("dispatch:      %.1f ms for %ux%u pixels, up to %u iterations each\n", msSince(dispatchStart), W, H,
              view_.maxIterations);
  submit([&] {
    barrier(VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_SHADER_WRITE_BIT,
            VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {W, H, 1};
    vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &copy);
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
  });
  void* pixels = nullptr;
  CHECK(vkMapMemory(device, bufferMemory, 0, VK_WHOLE_SIZE, 0, &pixels));
  if (!writePng(output, W, H, static_cast<const uint8_t*>(pixels))) {
    std::fprintf(stderr, "could not write %s\n", output);
    return 1;
  }
  std::printf("wrote:         %s\n", output);

  vkUnmapMemory(device, bufferMemory);
  vkDestroyFence(device, fence, nullptr);
  vkDestroyCommandPool(device, pool, nullptr);
  vkDestroyDescriptorPool(device, descriptorPool, nullptr);
  vkDestroyPipeline(device, pipeline, nullptr);
  vkDestroyPipelineLayout(device, layout, nullptr);
  vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
  vkDestroyShaderModule(device, module, nullptr);
  vkDestroyBuffer(device, buffer, nullptr);
  vkFreeMemory(device, bufferMemory, nullptr);
  vkDestroyImageView(device, view, nullptr);
  vkDestroyImage(device, image, nullptr);
  vkFreeMemory(device, imageMemory, nullptr);
  vkDestroyDevice(device, nullptr);
  vkDestroyInstance(instance, nullptr);
  return 0;
}
