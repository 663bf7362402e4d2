// VK_KHR_push_descriptor through the loader with validation, on Tessera and on lavapipe in the
// same test. Spec, "Push Descriptor Updates": vkCmdPushDescriptorSetKHR and
// vkCmdPushDescriptorSetWithTemplateKHR update the push set of a bind point at record time;
// "push descriptors can be updated incrementally and cause shaders to use the updated
// descriptors for subsequent bound pipeline commands": each draw or dispatch sees what was
// pushed before it was recorded (not what a later push leaves), and descriptors a later push
// does not write keep their values. Compute and graphics have separate push sets.
//
// Compute (tests/shaders/saxpy.comp, y += a * x, set 0 pushed): four dispatches with
// different pushes. Graphics (tests/shaders/push_descriptor.frag, colour = base + a + b, set 0
// an ordinary set, set 1 pushed): three draws into three columns. Expected values follow from
// the rules above; lavapipe must agree.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "bare_device.h"
#include "compute_fixture.h"
#include "dual_driver.h"
#include "simple_pipeline.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kN = 64;      // compute elements
constexpr uint32_t kColumn = 4;  // graphics: three columns of kColumn x kColumn pixels
constexpr uint32_t kWidth = 3 * kColumn;

struct Results {
  std::vector<float> y;
  std::vector<uint8_t> pixels;  // kWidth x kColumn RGBA8
};

struct ComputePush {  // the template's data
  VkDescriptorBufferInfo x, y;
};

float xValue(uint32_t which, uint32_t i) { return float((which + 1) * 100 + i); }

Results run(VkPhysicalDevice pd) {
  VkPhysicalDevicePushDescriptorPropertiesKHR pushProps{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &pushProps};
  vkGetPhysicalDeviceProperties2(pd, &props);
  EXPECT_GE(pushProps.maxPushDescriptors, 32u) << "the spec's minimum (Required Limits)";

  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  v13.maintenance4 = VK_TRUE;  // glslang's SPIR-V 1.6 gives saxpy's workgroup size as LocalSizeId
  TestDevice device(pd, nullptr, &v13, {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};
  auto push = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(vkGetDeviceProcAddr(dev, "vkCmdPushDescriptorSetKHR"));
  auto pushTemplate = reinterpret_cast<PFN_vkCmdPushDescriptorSetWithTemplateKHR>(
      vkGetDeviceProcAddr(dev, "vkCmdPushDescriptorSetWithTemplateKHR"));
  EXPECT_NE(push, nullptr);
  EXPECT_NE(pushTemplate, nullptr);
  if (!push || !pushTemplate) return {};

  // Compute: set 0 pushed (x at binding 0, y at binding 1).
  const VkDescriptorSetLayoutBinding computeBindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr,
                                        VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR, 2, computeBindings};
  VkDescriptorSetLayout computeSetLayout;
  vkCreateDescriptorSetLayout(dev, &dslci, nullptr, &computeSetLayout);
  const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &computeSetLayout, 1, &range};
  VkPipelineLayout computeLayout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &computeLayout);
  const VkShaderModule saxpy = device.createShaderModule(loadCorpusShader("saxpy"));
  VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, saxpy, "main", nullptr};
  cpci.layout = computeLayout;
  VkPipeline compute;
  EXPECT_EQ(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, nullptr, &compute), VK_SUCCESS);
  const VkDescriptorUpdateTemplateEntry entries[2] = {
      {0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(ComputePush, x), sizeof(VkDescriptorBufferInfo)},
      {1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(ComputePush, y), sizeof(VkDescriptorBufferInfo)}};
  VkDescriptorUpdateTemplateCreateInfo tci{VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
  tci.descriptorUpdateEntryCount = 2;
  tci.pDescriptorUpdateEntries = entries;
  tci.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR;
  tci.pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
  tci.pipelineLayout = computeLayout;
  tci.set = 0;
  VkDescriptorUpdateTemplate computeTemplate;
  EXPECT_EQ(vkCreateDescriptorUpdateTemplate(dev, &tci, nullptr, &computeTemplate), VK_SUCCESS);

  void* maps[5];
  VkBuffer xs[3], ys[2];
  for (uint32_t k = 0; k < 3; ++k) xs[k] = device.createMappedBuffer(kN * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &maps[k]);
  for (uint32_t k = 0; k < 2; ++k) ys[k] = device.createMappedBuffer(kN * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &maps[3 + k]);
  for (uint32_t i = 0; i < kN; ++i) {
    for (uint32_t k = 0; k < 3; ++k) static_cast<float*>(maps[k])[i] = xValue(k, i);
    for (uint32_t k = 0; k < 2; ++k) static_cast<float*>(maps[3 + k])[i] = 0;
  }

  // Graphics: set 0 ordinary (base), set 1 pushed (a, b). Uniform values: base, red, green, blue, zero.
  const float uniforms[5][4] = {{0, 0, 0, 1}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 0}};
  void* uniformMap;
  VkBuffer uniformBuffer = device.createMappedBuffer(5 * 256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, &uniformMap);
  for (uint32_t k = 0; k < 5; ++k) std::memcpy(static_cast<uint8_t*>(uniformMap) + 256 * k, uniforms[k], 16);
  auto uniform = [&](uint32_t k) { return VkDescriptorBufferInfo{uniformBuffer, 256 * k, 16}; };
  const VkDescriptorSetLayoutBinding baseBinding{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
  const VkDescriptorSetLayoutBinding pushedBindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}};
  VkDescriptorSetLayout graphicsSetLayouts[2];
  VkDescriptorSetLayoutCreateInfo baseLci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &baseBinding};
  vkCreateDescriptorSetLayout(dev, &baseLci, nullptr, &graphicsSetLayouts[0]);
  VkDescriptorSetLayoutCreateInfo pushLci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr,
                                          VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR, 2, pushedBindings};
  vkCreateDescriptorSetLayout(dev, &pushLci, nullptr, &graphicsSetLayouts[1]);
  VkPipelineLayoutCreateInfo gplci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 2, graphicsSetLayouts};
  VkPipelineLayout graphicsLayout;
  vkCreatePipelineLayout(dev, &gplci, nullptr, &graphicsLayout);
  const VkShaderModule vs = device.createShaderModule(loadCorpusShader("fullscreen_vert"));
  const VkShaderModule fs = device.createShaderModule(loadCorpusShader("push_descriptor_frag"));
  const VkPipeline graphics = createSimplePipeline(dev, {vs, fs, graphicsLayout, kWidth, kColumn});
  const VkDescriptorUpdateTemplateEntry bEntry{1, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 0, sizeof(VkDescriptorBufferInfo)};
  tci.descriptorUpdateEntryCount = 1;
  tci.pDescriptorUpdateEntries = &bEntry;
  tci.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  tci.pipelineLayout = graphicsLayout;
  tci.set = 1;
  VkDescriptorUpdateTemplate graphicsTemplate;
  EXPECT_EQ(vkCreateDescriptorUpdateTemplate(dev, &tci, nullptr, &graphicsTemplate), VK_SUCCESS);

  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &poolSize};
  VkDescriptorPool descriptorPool;
  vkCreateDescriptorPool(dev, &dpci, nullptr, &descriptorPool);
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, descriptorPool, 1, &graphicsSetLayouts[0]};
  VkDescriptorSet baseSet;
  vkAllocateDescriptorSets(dev, &dsai, &baseSet);
  const VkDescriptorBufferInfo baseInfo = uniform(0);
  VkWriteDescriptorSet baseWrite{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, baseSet, 0, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                 nullptr, &baseInfo};
  vkUpdateDescriptorSets(dev, 1, &baseWrite, 0, nullptr);

  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = VK_FORMAT_R8G8B8A8_UNORM;
  ici.extent = {kWidth, kColumn, 1};
  ici.mipLevels = ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage image;
  vkCreateImage(dev, &ici, nullptr, &image);
  device.bindMemory(image);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = ici.format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view;
  vkCreateImageView(dev, &vci, nullptr, &view);
  void* readMap;
  VkBuffer readback = device.createMappedBuffer(kWidth * kColumn * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);

  VkCommandPoolCreateInfo cpoolci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpoolci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);

  // Compute. Dispatch 1: y0 += 1 * x0. Dispatch 2 pushes binding 0 only: y0 += 1 * x1 (binding 1
  // keeps y0). Dispatch 3, through the template: y1 += 2 * x2. Dispatch 4 pushes binding 1 only:
  // y0 += 2 * x2 (binding 0 keeps x2 from the template).
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, compute);
  VkMemoryBarrier order{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT,
                        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
  auto dispatch = [&](float a) {
    const struct {
      float a;
      uint32_t n;
    } pc{a, kN};
    vkCmdPushConstants(cmd, computeLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), &pc);
    vkCmdDispatch(cmd, 1, 1, 1);
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &order, 0, nullptr,
                         0, nullptr);
  };
  auto storage = [](VkBuffer b) { return VkDescriptorBufferInfo{b, 0, VK_WHOLE_SIZE}; };
  const VkDescriptorBufferInfo first[2] = {storage(xs[0]), storage(ys[0])};
  VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, VK_NULL_HANDLE, 0, 0, 2,
                         VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, first};
  push(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, computeLayout, 0, 1, &w);
  dispatch(1);
  const VkDescriptorBufferInfo x1 = storage(xs[1]);
  w.descriptorCount = 1;
  w.pBufferInfo = &x1;
  push(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, computeLayout, 0, 1, &w);
  dispatch(1);
  const ComputePush templated{storage(xs[2]), storage(ys[1])};
  pushTemplate(cmd, computeTemplate, computeLayout, 0, &templated);
  dispatch(2);
  const VkDescriptorBufferInfo y0 = storage(ys[0]);
  w.dstBinding = 1;
  w.pBufferInfo = &y0;
  push(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, computeLayout, 0, 1, &w);
  dispatch(2);

  // Graphics. Column 0: a = red, b = zero. Column 1 pushes a = green only (b stays zero).
  // Column 2 pushes b = blue through the template (a stays green). The compute pushes above
  // must not disturb the graphics push set, nor these the compute one.
  VkImageMemoryBarrier ib{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  ib.image = image;
  ib.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  ib.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  ib.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  ib.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &ib);
  VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  attachment.imageView = view;
  attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.clearValue.color = {{0.5f, 0.5f, 0.5f, 0.5f}};
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {kWidth, kColumn}};
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &attachment;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, graphics);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, graphicsLayout, 0, 1, &baseSet, 0, nullptr);
  auto drawColumn = [&](uint32_t column) {
    const VkRect2D r{{int32_t(column * kColumn), 0}, {kColumn, kColumn}};
    vkCmdSetScissor(cmd, 0, 1, &r);
    vkCmdDraw(cmd, 3, 1, 0, 0);
  };
  const VkDescriptorBufferInfo redAndZero[2] = {uniform(1), uniform(4)};
  VkWriteDescriptorSet gw{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, VK_NULL_HANDLE, 0, 0, 2,
                          VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, nullptr, redAndZero};
  push(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, graphicsLayout, 1, 1, &gw);
  drawColumn(0);
  const VkDescriptorBufferInfo green = uniform(2);
  gw.descriptorCount = 1;
  gw.pBufferInfo = &green;
  push(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, graphicsLayout, 1, 1, &gw);
  drawColumn(1);
  const VkDescriptorBufferInfo blue = uniform(3);
  pushTemplate(cmd, graphicsTemplate, graphicsLayout, 1, &blue);
  drawColumn(2);
  vkCmdEndRendering(cmd);
  ib.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  ib.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  ib.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  ib.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &ib);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {kWidth, kColumn, 1};
  vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                       VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                       1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);

  Results out;
  out.y.resize(2 * kN);
  std::memcpy(out.y.data(), maps[3], kN * 4);
  std::memcpy(out.y.data() + kN, maps[4], kN * 4);
  out.pixels.resize(kWidth * kColumn * 4);
  std::memcpy(out.pixels.data(), readMap, out.pixels.size());

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyDescriptorPool(dev, descriptorPool, nullptr);
  vkDestroyDescriptorUpdateTemplate(dev, computeTemplate, nullptr);
  vkDestroyDescriptorUpdateTemplate(dev, graphicsTemplate, nullptr);
  vkDestroyPipeline(dev, compute, nullptr);
  vkDestroyPipeline(dev, graphics, nullptr);
  vkDestroyPipelineLayout(dev, computeLayout, nullptr);
  vkDestroyPipelineLayout(dev, graphicsLayout, nullptr);
  for (VkDescriptorSetLayout l : graphicsSetLayouts) vkDestroyDescriptorSetLayout(dev, l, nullptr);
  vkDestroyDescriptorSetLayout(dev, computeSetLayout, nullptr);
  for (VkShaderModule m : {saxpy, vs, fs}) vkDestroyShaderModule(dev, m, nullptr);
  for (VkBuffer b : {xs[0], xs[1], xs[2], ys[0], ys[1], uniformBuffer, readback}) vkDestroyBuffer(dev, b, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, image, nullptr);
  return out;
}

TEST(PushDescriptor, EachCommandSeesThePushesRecordedBeforeItAsTheSpecAndLavapipe) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const Results ours = run(drivers.tessera);
  ASSERT_EQ(ours.y.size(), size_t(2 * kN));
  Results reference;
  if (drivers.lavapipe) {
    reference = run(drivers.lavapipe);
    ASSERT_EQ(reference.y.size(), ours.y.size());
  }
  for (uint32_t i = 0; i < kN; ++i) {
    const float y0 = xValue(0, i) + xValue(1, i) + 2 * xValue(2, i), y1 = 2 * xValue(2, i);
    EXPECT_EQ(ours.y[i], y0) << "y0[" << i << "]: the spec";
    EXPECT_EQ(ours.y[kN + i], y1) << "y1[" << i << "]: the spec";
    if (!reference.y.empty()) {
      EXPECT_EQ(ours.y[i], reference.y[i]) << "y0[" << i << "]: lavapipe";
      EXPECT_EQ(ours.y[kN + i], reference.y[kN + i]) << "y1[" << i << "]: lavapipe";
    }
  }
  const uint8_t want[3][4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 255, 255, 255}};
  int failures = 0;
  for (uint32_t y = 0; y < kColumn && failures < 5; ++y)
    for (uint32_t x = 0; x < kWidth && failures < 5; ++x)
      for (int c = 0; c < 4; ++c) {
        const size_t at = (y * kWidth + x) * 4 + c;
        if (ours.pixels[at] != want[x / kColumn][c]) {
          ADD_FAILURE() << "pixel (" << x << ", " << y << ") component " << c << ": Tessera " << int(ours.pixels[at])
                        << ", the spec " << int(want[x / kColumn][c]);
          ++failures;
        }
        if (!reference.pixels.empty() && ours.pixels[at] != reference.pixels[at]) {
          ADD_FAILURE() << "pixel (" << x << ", " << y << ") component " << c << ": Tessera " << int(ours.pixels[at])
                        << ", lavapipe " << int(reference.pixels[at]);
          ++failures;
        }
      }
}

// vkGetDescriptorSetLayoutSupport answers for push descriptor layouts by maxPushDescriptors.
TEST(PushDescriptor, LayoutSupportFollowsMaxPushDescriptors) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  VkPhysicalDevicePushDescriptorPropertiesKHR pushProps{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &pushProps};
  vkGetPhysicalDeviceProperties2(drivers.tessera, &props);
  TestDevice device(drivers.tessera, nullptr, nullptr, {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME});
  ASSERT_NE(device.dev, VK_NULL_HANDLE);
  for (uint32_t count : {pushProps.maxPushDescriptors, pushProps.maxPushDescriptors + 1}) {
    const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, count, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr,
                                       VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR, 1, &binding};
    VkDescriptorSetLayoutSupport support{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT};
    vkGetDescriptorSetLayoutSupport(device.dev, &ci, &support);
    EXPECT_EQ(support.supported, count <= pushProps.maxPushDescriptors ? VK_TRUE : VK_FALSE) << count;
  }
}

// "vkDestroyDescriptorSetLayout": a set layout may be destroyed once the pipeline layouts made
// with it exist, and the pipeline layout stays usable, so a push must not read the destroyed
// layout (Tessera's pipeline layout holds a reference to its push set layout). Without layers:
// the validation layer of Debian 12 (1.3.239) crashes in vkCmdPushDescriptorSetWithTemplateKHR
// and vkCmdPushDescriptorSetKHR on this valid sequence. A new layout of the same size is made in
// between, so that a driver reading freed memory would most likely find that one (bindings 5
// and 7) and write nothing where the shader reads.
TEST(PushDescriptorWithoutLayers, TheSetLayoutMayBeDestroyedBeforeThePush) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "needs Tessera without layers";
  BareDevice bare({}, {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME});
  ASSERT_NE(bare.device, VK_NULL_HANDLE);
  const VkDevice dev = bare.device;
  auto push = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(vkGetDeviceProcAddr(dev, "vkCmdPushDescriptorSetKHR"));
  ASSERT_NE(push, nullptr);
  VkDescriptorSetLayoutBinding bindings[2] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
                                              {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr,
                                        VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR, 2, bindings};
  VkDescriptorSetLayout setLayout, other;
  ASSERT_EQ(vkCreateDescriptorSetLayout(dev, &dslci, nullptr, &setLayout), VK_SUCCESS);
  const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout, 1, &range};
  VkPipelineLayout layout;
  ASSERT_EQ(vkCreatePipelineLayout(dev, &plci, nullptr, &layout), VK_SUCCESS);
  vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
  bindings[0].binding = 5;
  bindings[1].binding = 7;
  ASSERT_EQ(vkCreateDescriptorSetLayout(dev, &dslci, nullptr, &other), VK_SUCCESS);

  const std::vector<uint32_t> code = loadCorpusShader("saxpy");
  VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, code.size() * 4, code.data()};
  VkShaderModule module;
  ASSERT_EQ(vkCreateShaderModule(dev, &smci, nullptr, &module), VK_SUCCESS);
  VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
  cpci.layout = layout;
  VkPipeline pipeline;
  ASSERT_EQ(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline), VK_SUCCESS);

  VkBuffer buffers[2];
  VkDeviceMemory memories[2];
  float* data[2];
  for (int b = 0; b < 2; ++b) {
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = kN * 4;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    ASSERT_EQ(vkCreateBuffer(dev, &bci, nullptr, &buffers[b]), VK_SUCCESS);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, buffers[b], &req);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, 0};  // the one memory type
    ASSERT_EQ(vkAllocateMemory(dev, &mai, nullptr, &memories[b]), VK_SUCCESS);
    ASSERT_EQ(vkBindBufferMemory(dev, buffers[b], memories[b], 0), VK_SUCCESS);
    void* p;
    ASSERT_EQ(vkMapMemory(dev, memories[b], 0, VK_WHOLE_SIZE, 0, &p), VK_SUCCESS);
    data[b] = static_cast<float*>(p);
  }
  for (uint32_t i = 0; i < kN; ++i) {
    data[0][i] = float(i);
    data[1][i] = 1.0f;
  }
  VkCommandPoolCreateInfo cpoolci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  ASSERT_EQ(vkCreateCommandPool(dev, &cpoolci, nullptr, &pool), VK_SUCCESS);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  ASSERT_EQ(vkAllocateCommandBuffers(dev, &cbai, &cmd), VK_SUCCESS);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  const VkDescriptorBufferInfo infos[2] = {{buffers[0], 0, VK_WHOLE_SIZE}, {buffers[1], 0, VK_WHOLE_SIZE}};
  const VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, VK_NULL_HANDLE, 0, 0, 2,
                               VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, infos};
  push(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &w);
  const struct {
    float a;
    uint32_t n;
  } pc{3.0f, kN};
  vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), &pc);
  vkCmdDispatch(cmd, 1, 1, 1);
  ASSERT_EQ(vkEndCommandBuffer(cmd), VK_SUCCESS);
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd;
  ASSERT_EQ(vkQueueSubmit(bare.queue, 1, &si, VK_NULL_HANDLE), VK_SUCCESS);
  ASSERT_EQ(vkQueueWaitIdle(bare.queue), VK_SUCCESS);
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(data[1][i], 3.0f * float(i) + 1.0f) << i;

  vkDestroyCommandPool(dev, pool, nullptr);
  for (int b = 0; b < 2; ++b) {
    vkDestroyBuffer(dev, buffers[b], nullptr);
    vkFreeMemory(dev, memories[b], nullptr);
  }
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyShaderModule(dev, module, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyDescriptorSetLayout(dev, other, nullptr);
}

}  // namespace
}  // namespace tessera_test
