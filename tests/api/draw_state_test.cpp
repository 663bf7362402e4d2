// Draw state that features promise, through the loader with validation: full 32-bit indices
// (fullDrawIndexUint32) and the 1.3 dynamic states that VK_EXT_extended_dynamic_state and
// VK_EXT_extended_dynamic_state2 name (cull mode, front face, topology, rasterizer discard,
// primitive restart). Each draw renders green into a black 32x32 target; the tests count
// green pixels.
#include <cstring>
#include <functional>

#include "compute_fixture.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 32;

struct Vertex {
  float pos[3];
  float color[4];
};

class DrawState : public ComputeTest {
 protected:
  DrawState() {
    extraDeviceExtensions.push_back(VK_EXT_PRIMITIVE_TOPOLOGY_LIST_RESTART_EXTENSION_NAME);
    extraDeviceFeatures = &listRestart_;
  }
  VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT listRestart_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT};
  void SetUp() override {
    ComputeTest::SetUp();
    if (HasFatalFailure()) return;
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = VK_FORMAT_R8G8B8A8_UNORM;
    ici.extent = {kSize, kSize, 1};
    ici.mipLevels = ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    target_ = createImage(ici);
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = target_.image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = ici.format;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VK_CHECK(vkCreateImageView(device, &vci, nullptr, &view_));
    readback_ = createBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    vertices_ = createBuffer(4096, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    indices_ = createBuffer(4096, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
    std::vector<uint32_t> vsCode = loadCorpusShader("draw_basic_vert"), fsCode = loadCorpusShader("draw_basic_frag");
    VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, vsCode.size() * 4, vsCode.data()};
    VK_CHECK(vkCreateShaderModule(device, &smci, nullptr, &vs_));
    smci.codeSize = fsCode.size() * 4;
    smci.pCode = fsCode.data();
    VK_CHECK(vkCreateShaderModule(device, &smci, nullptr, &fs_));
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    VK_CHECK(vkCreatePipelineLayout(device, &plci, nullptr, &layout_));
  }
  void TearDown() override {
    if (device) {
      vkDeviceWaitIdle(device);
      for (VkPipeline p : pipelines_) vkDestroyPipeline(device, p, nullptr);
      vkDestroyPipelineLayout(device, layout_, nullptr);
      vkDestroyShaderModule(device, vs_, nullptr);
      vkDestroyShaderModule(device, fs_, nullptr);
      vkDestroyImageView(device, view_, nullptr);
      destroy(target_);
      destroy(readback_);
      destroy(vertices_);
      destroy(indices_);
    }
    ComputeTest::TearDown();
  }

  // A pipeline drawing draw_basic's coloured triangles with viewport and scissor dynamic, plus
  // `dynamic`; the static state culls nothing, faces CCW, lists triangles, no restart.
  VkPipeline pipeline(std::vector<VkDynamicState> dynamic, VkPipelineCache cache = VK_NULL_HANDLE,
                      VkPipelineCreationFeedbackCreateInfo* feedback = nullptr) {
    VkPipelineShaderStageCreateInfo stages[2] = {
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs_, "main", nullptr},
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs_, "main", nullptr}};
    VkVertexInputBindingDescription binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription attrs[2] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                                                  {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 12}};
    VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO, nullptr, 0, 1,
                                            &binding, 2, attrs};
    VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    vp.viewportCount = vp.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.polygonMode = VK_POLYGON_MODE_FILL;
    rs.cullMode = VK_CULL_MODE_NONE;
    rs.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    rs.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState blend{};
    blend.colorWriteMask = 0xF;
    VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.attachmentCount = 1;
    cb.pAttachments = &blend;
    dynamic.push_back(VK_DYNAMIC_STATE_VIEWPORT);
    dynamic.push_back(VK_DYNAMIC_STATE_SCISSOR);
    VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0,
                                         uint32_t(dynamic.size()), dynamic.data()};
    const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, feedback, 0, 1, &format};
    VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
    gpci.stageCount = 2;
    gpci.pStages = stages;
    gpci.pVertexInputState = &vi;
    gpci.pInputAssemblyState = &ia;
    gpci.pViewportState = &vp;
    gpci.pRasterizationState = &rs;
    gpci.pMultisampleState = &ms;
    gpci.pColorBlendState = &cb;
    gpci.pDynamicState = &dyn;
    gpci.layout = layout_;
    VkPipeline p = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateGraphicsPipelines(device, cache, 1, &gpci, nullptr, &p), VK_SUCCESS);
    pipelines_.push_back(p);
    return p;
  }

  void setVertices(const std::vector<Vertex>& v) { std::memcpy(vertices_.mapped, v.data(), v.size() * sizeof(Vertex)); }
  void setIndices(const std::vector<uint32_t>& i) { std::memcpy(indices_.mapped, i.data(), i.size() * 4); }

  // Clears the target to black, binds `p` and the buffers, runs `draw`, returns the number of
  // green pixels.
  uint32_t render(VkPipeline p, const std::function<void(VkCommandBuffer)>& draw) {
    submitAndWait([&](VkCommandBuffer cb) {
      VkImageMemoryBarrier toAttachment{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      toAttachment.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
      toAttachment.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      toAttachment.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
      toAttachment.srcQueueFamilyIndex = toAttachment.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      toAttachment.image = target_.image;
      toAttachment.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0,
                           nullptr, 0, nullptr, 1, &toAttachment);
      VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
      color.imageView = view_;
      color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
      color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      color.clearValue.color = {{0, 0, 0, 1}};
      VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
      ri.renderArea = {{0, 0}, {kSize, kSize}};
      ri.layerCount = 1;
      ri.colorAttachmentCount = 1;
      ri.pColorAttachments = &color;
      vkCmdBeginRendering(cb, &ri);
      vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
      VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
      VkRect2D scissor{{0, 0}, {kSize, kSize}};
      vkCmdSetViewport(cb, 0, 1, &viewport);
      vkCmdSetScissor(cb, 0, 1, &scissor);
      VkDeviceSize offset = 0;
      vkCmdBindVertexBuffers(cb, 0, 1, &vertices_.buffer, &offset);
      vkCmdBindIndexBuffer(cb, indices_.buffer, 0, VK_INDEX_TYPE_UINT32);
      draw(cb);
      vkCmdEndRendering(cb);
      VkImageMemoryBarrier toTransfer = toAttachment;
      toTransfer.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
      toTransfer.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
      toTransfer.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
      toTransfer.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
      vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                           nullptr, 0, nullptr, 1, &toTransfer);
      VkBufferImageCopy copy{};
      copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      copy.imageExtent = {kSize, kSize, 1};
      vkCmdCopyImageToBuffer(cb, target_.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_.buffer, 1, &copy);
      VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
      vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0,
                           nullptr);
    });
    uint32_t green = 0;
    for (uint32_t i = 0; i < kSize * kSize; ++i) {
      const uint8_t* px = readback_.mapped + 4 * i;
      green += px[0] < 8 && px[1] > 247 && px[2] < 8;
    }
    return green;
  }

  // Counter-clockwise (in framebuffer coordinates, y down) triangle over the lower-left half.
  static std::vector<Vertex> ccwTriangle() {
    const float g[4] = {0, 1, 0, 1};
    return {{{-1, -1, 0.5f}, {g[0], g[1], g[2], g[3]}},
            {{-1, 1, 0.5f}, {g[0], g[1], g[2], g[3]}},
            {{1, 1, 0.5f}, {g[0], g[1], g[2], g[3]}}};
  }

  ImageAndMemory target_;
  VkImageView view_ = VK_NULL_HANDLE;
  BufferAndMemory readback_, vertices_, indices_;
  VkShaderModule vs_ = VK_NULL_HANDLE, fs_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  std::vector<VkPipeline> pipelines_;
};

// fullDrawIndexUint32: indices above 2^24 - 1 are used in full. With vertexOffset -2^24,
// indices 2^24 + {0, 1, 2} name vertices 0..2; a driver that kept only 24 bits of them would
// fetch vertices far outside the buffer.
TEST_F(DrawState, FullThirtyTwoBitIndicesAreHonoured) {
  VkPhysicalDeviceFeatures features;
  vkGetPhysicalDeviceFeatures(physicalDevice, &features);
  ASSERT_TRUE(features.fullDrawIndexUint32);
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(physicalDevice, &props);
  EXPECT_EQ(props.limits.maxDrawIndexedIndexValue, UINT32_MAX);
  VkPipeline p = pipeline({});
  setVertices(ccwTriangle());
  setIndices({0, 1, 2});
  const uint32_t reference = render(p, [](VkCommandBuffer cb) { vkCmdDrawIndexed(cb, 3, 1, 0, 0, 0); });
  EXPECT_GT(reference, kSize * kSize / 3);
  const uint32_t base = 1u << 24;
  setIndices({base, base + 1, base + 2});
  EXPECT_EQ(render(p, [](VkCommandBuffer cb) { vkCmdDrawIndexed(cb, 3, 1, 0, -int32_t(base), 0); }), reference);
}

// VkPipelineCache: a graphics pipeline's compiled stages are in the cache's data; a cache
// created from that data (as another process would) reports hits through creation feedback
// and its pipeline draws the same pixels; damaged data is ignored (no hit, same pixels).
TEST_F(DrawState, PipelineCacheDataHoldsGraphicsStagesAndReportsHits) {
  VkPipelineCacheCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  VkPipelineCache cache = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreatePipelineCache(device, &ci, nullptr, &cache), VK_SUCCESS);
  setVertices(ccwTriangle());
  auto draw = [](VkCommandBuffer cb) { vkCmdDraw(cb, 3, 1, 0, 0); };
  const uint32_t green = render(pipeline({}, cache), draw);
  EXPECT_GT(green, kSize * kSize / 3);
  const std::vector<uint8_t> pixels(readback_.mapped, readback_.mapped + kSize * kSize * 4);
  size_t size = 0;
  ASSERT_EQ(vkGetPipelineCacheData(device, cache, &size, nullptr), VK_SUCCESS);
  EXPECT_GT(size, 32u + 2 * (20u + 500u)) << "the header and two compiled stages";
  std::vector<uint8_t> data(size);
  ASSERT_EQ(vkGetPipelineCacheData(device, cache, &size, data.data()), VK_SUCCESS);

  auto createFrom = [&](const std::vector<uint8_t>& initial) {
    VkPipelineCacheCreateInfo from{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    from.initialDataSize = initial.size();
    from.pInitialData = initial.data();
    VkPipelineCache c = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreatePipelineCache(device, &from, nullptr, &c), VK_SUCCESS);
    return c;
  };
  struct Feedback {
    VkPipelineCreationFeedback pipeline{};
    VkPipelineCreationFeedback stages[2]{};
    VkPipelineCreationFeedbackCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO};
    Feedback() {
      info.pPipelineCreationFeedback = &pipeline;
      info.pipelineStageCreationFeedbackCount = 2;
      info.pPipelineStageCreationFeedbacks = stages;
    }
  };
  constexpr VkPipelineCreationFeedbackFlags kHit = VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT;
  constexpr VkPipelineCreationFeedbackFlags kValid = VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT;

  VkPipelineCache reloaded = createFrom(data);
  Feedback hit;
  EXPECT_EQ(render(pipeline({}, reloaded, &hit.info), draw), green);
  EXPECT_EQ(std::vector<uint8_t>(readback_.mapped, readback_.mapped + pixels.size()), pixels);
  EXPECT_EQ(hit.pipeline.flags, kValid | kHit);
  EXPECT_EQ(hit.stages[0].flags, kValid | kHit);
  EXPECT_EQ(hit.stages[1].flags, kValid | kHit);
  // Merged into an empty cache, the entries still hit.
  VkPipelineCache merged = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreatePipelineCache(device, &ci, nullptr, &merged), VK_SUCCESS);
  ASSERT_EQ(vkMergePipelineCaches(device, merged, 1, &reloaded), VK_SUCCESS);
  Feedback mergedHit;
  pipeline({}, merged, &mergedHit.info);
  EXPECT_EQ(mergedHit.pipeline.flags, kValid | kHit);

  // Every entry's bytes damaged (the header and lengths intact): no hit, the same pixels.
  std::vector<uint8_t> damaged = data;
  for (size_t pos = 32; pos + 20 <= damaged.size();) {
    uint32_t len;
    std::memcpy(&len, damaged.data() + pos + 16, 4);
    ASSERT_LE(pos + 20 + len, damaged.size());
    for (uint32_t k = 0; k < len; k += 7) damaged[pos + 20 + k] ^= 0x5A;
    pos += 20 + len;
  }
  VkPipelineCache bad = createFrom(damaged);
  Feedback miss;
  EXPECT_EQ(render(pipeline({}, bad, &miss.info), draw), green);
  EXPECT_EQ(std::vector<uint8_t>(readback_.mapped, readback_.mapped + pixels.size()), pixels);
  EXPECT_EQ(miss.pipeline.flags, kValid);
  // Truncated data (half the bytes): whole entries are kept, nothing breaks.
  VkPipelineCache truncated = createFrom(std::vector<uint8_t>(data.begin(), data.begin() + data.size() / 2));
  EXPECT_EQ(render(pipeline({}, truncated), draw), green);
  for (VkPipelineCache c : {cache, reloaded, merged, bad, truncated}) vkDestroyPipelineCache(device, c, nullptr);
}

// Top-left, bottom-left, top-right, bottom-right: as a strip, two triangles covering the target.
std::vector<Vertex> stripQuad() {
  const float g[4] = {0, 1, 0, 1};
  return {{{-1, -1, 0.5f}, {g[0], g[1], g[2], g[3]}},
          {{-1, 1, 0.5f}, {g[0], g[1], g[2], g[3]}},
          {{1, -1, 0.5f}, {g[0], g[1], g[2], g[3]}},
          {{1, 1, 0.5f}, {g[0], g[1], g[2], g[3]}}};
}

// VK_EXT_extended_dynamic_state's states (core 1.3): cull mode, front face and topology from
// the command buffer instead of the pipeline.
TEST_F(DrawState, CullModeFrontFaceAndTopologyAreDynamic) {
  VkPipeline p = pipeline({VK_DYNAMIC_STATE_CULL_MODE, VK_DYNAMIC_STATE_FRONT_FACE, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY});
  setVertices(ccwTriangle());
  auto draw = [](VkCullModeFlags cull, VkFrontFace front, VkPrimitiveTopology topology, uint32_t count) {
    return [=](VkCommandBuffer cb) {
      vkCmdSetCullMode(cb, cull);
      vkCmdSetFrontFace(cb, front);
      vkCmdSetPrimitiveTopology(cb, topology);
      vkCmdDraw(cb, count, 1, 0, 0);
    };
  };
  const uint32_t triangle = render(p, draw(VK_CULL_MODE_BACK_BIT, VK_FRONT_FACE_COUNTER_CLOCKWISE,
                                           VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 3));
  EXPECT_GT(triangle, kSize * kSize / 3);
  EXPECT_EQ(render(p, draw(VK_CULL_MODE_BACK_BIT, VK_FRONT_FACE_CLOCKWISE, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 3)), 0u);
  EXPECT_EQ(render(p, draw(VK_CULL_MODE_FRONT_BIT, VK_FRONT_FACE_COUNTER_CLOCKWISE, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 3)),
            0u);
  // The same pipeline drawing a strip of 4 vertices: two triangles, the whole target.
  setVertices(stripQuad());
  EXPECT_EQ(render(p, draw(VK_CULL_MODE_NONE, VK_FRONT_FACE_COUNTER_CLOCKWISE, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 4)),
            kSize * kSize);
}

// VK_EXT_extended_dynamic_state2's states (core 1.3): rasterizer discard and primitive restart.
TEST_F(DrawState, RasterizerDiscardAndPrimitiveRestartAreDynamic) {
  VkPipeline p = pipeline({VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE, VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE,
                           VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY});
  setVertices(stripQuad());
  auto draw = [this](bool discard, bool restart, std::vector<uint32_t>* indices) {
    setIndices(*indices);
    const uint32_t count = uint32_t(indices->size());
    return [=](VkCommandBuffer cb) {
      vkCmdSetRasterizerDiscardEnable(cb, discard);
      vkCmdSetPrimitiveRestartEnable(cb, restart);
      vkCmdSetPrimitiveTopology(cb, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
      vkCmdDrawIndexed(cb, count, 1, 0, 0, 0);
    };
  };
  std::vector<uint32_t> strip{0, 1, 2, 3};
  EXPECT_EQ(render(p, draw(false, false, &strip)), kSize * kSize);
  EXPECT_EQ(render(p, draw(true, false, &strip)), 0u);
  // With restart, 0xFFFFFFFF ends the strip after the first triangle (the upper-left half);
  // {3} alone draws nothing.
  std::vector<uint32_t> restarted{0, 1, 2, 0xFFFFFFFFu, 3};
  const uint32_t half = render(p, draw(false, true, &restarted));
  EXPECT_GT(half, kSize * kSize / 3);
  EXPECT_LT(half, kSize * kSize);
}

// VK_EXT_primitive_topology_list_restart ("Primitive Restart"): in a list topology the restart
// index discards the indices of an incomplete primitive before it and assembly starts again
// after it. Two triangles of the quad, each preceded by indices that do not make a triangle;
// without the restarts the same indices would make other triangles.
TEST_F(DrawState, ListTopologiesRestartAfterAnIncompletePrimitive) {
  ASSERT_TRUE(listRestart_.primitiveTopologyListRestart);
  VkPipeline p = pipeline({VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY});
  setVertices(stripQuad());
  auto draw = [this](bool restart, VkPrimitiveTopology topology, std::vector<uint32_t>* indices) {
    setIndices(*indices);
    const uint32_t count = uint32_t(indices->size());
    return [=](VkCommandBuffer cb) {
      vkCmdSetPrimitiveRestartEnable(cb, restart);
      vkCmdSetPrimitiveTopology(cb, topology);
      vkCmdDrawIndexed(cb, count, 1, 0, 0, 0);
    };
  };
  const uint32_t R = 0xFFFFFFFFu;
  std::vector<uint32_t> first{0, 1, 2}, second{1, 3, 2};
  const uint32_t upper = render(p, draw(false, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, &first));
  const uint32_t lower = render(p, draw(false, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, &second));
  ASSERT_GT(upper, 0u);
  ASSERT_EQ(upper + lower, kSize * kSize);  // the quad's two halves
  // {2} is cut off by the restart, then (0, 1, 2), then (1, 3, 2). Assembled across the
  // restarts instead, the triangles would be (2, R, 0), (1, 2, R), (1, 3, 2).
  std::vector<uint32_t> both{2, R, 0, 1, 2, R, 1, 3, 2};
  EXPECT_EQ(render(p, draw(true, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, &both)), kSize * kSize);
  // {3} cut off, (0, 1, 2), and the trailing {1} of an incomplete triangle dropped (across the
  // restart: (3, R, 0) and the empty (1, 2, 1)).
  std::vector<uint32_t> one{3, R, 0, 1, 2, 1};
  EXPECT_EQ(render(p, draw(true, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, &one)), upper);
}

}  // namespace
}  // namespace tessera_test
