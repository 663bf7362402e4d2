// VK_EXT_extended_dynamic_state3's commands. Sixteen of its states are offered (their
// extendedDynamicState3* features, icd/physical_device.cpp): each command stores its value in the
// command buffer's GraphicsRecordState, and drawStateFor (cmd_draw.cpp) applies it to the draws of
// pipelines that list the state as dynamic. The others have no feature, so a valid program never
// calls them; they record nothing (the extension needs every command present to be offered).
#include "command_buffer.h"
#include "entrypoints.h"

using namespace tessera;

namespace {

GraphicsRecordState& stateOf(VkCommandBuffer commandBuffer) { return fromHandle<CommandBuffer>(commandBuffer)->graphicsState; }

}  // namespace

extern "C" {

// The states Tessera applies ("Fixed-Function Vertex Post-Processing", "Rasterization",
// "Multisampling", "Tessellation", "Line Segments", "Flat Shading"). The tessellation domain
// origin reaches the tessellator per draw (TessellationInterface::lowerLeftOrigin).
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetTessellationDomainOriginEXT(VkCommandBuffer commandBuffer,
                                                                      VkTessellationDomainOrigin domainOrigin) {
  stateOf(commandBuffer).lowerLeftOrigin = domainOrigin == VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetDepthClampEnableEXT(VkCommandBuffer commandBuffer, VkBool32 depthClampEnable) {
  stateOf(commandBuffer).depthClampEnable = depthClampEnable;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetPolygonModeEXT(VkCommandBuffer commandBuffer, VkPolygonMode polygonMode) {
  stateOf(commandBuffer).polygonMode = polygonMode;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetSampleMaskEXT(VkCommandBuffer commandBuffer, VkSampleCountFlagBits,
                                                        const VkSampleMask* pSampleMask) {
  // One word covers every sample count Tessera offers (1 and 4).
  stateOf(commandBuffer).sampleMask = pSampleMask ? pSampleMask[0] : ~0u;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetAlphaToOneEnableEXT(VkCommandBuffer commandBuffer, VkBool32 alphaToOneEnable) {
  stateOf(commandBuffer).alphaToOne = alphaToOneEnable;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetDepthClipEnableEXT(VkCommandBuffer commandBuffer, VkBool32 depthClipEnable) {
  stateOf(commandBuffer).depthClipEnable = depthClipEnable;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetProvokingVertexModeEXT(VkCommandBuffer commandBuffer,
                                                                 VkProvokingVertexModeEXT provokingVertexMode) {
  stateOf(commandBuffer).provokingVertexLast = provokingVertexMode == VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetLineRasterizationModeEXT(VkCommandBuffer commandBuffer,
                                                                   VkLineRasterizationModeEXT lineRasterizationMode) {
  stateOf(commandBuffer).lineMode = lineRasterizationMode;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetLineStippleEnableEXT(VkCommandBuffer commandBuffer, VkBool32 stippledLineEnable) {
  stateOf(commandBuffer).lineStippleEnable = stippledLineEnable;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetDepthClipNegativeOneToOneEXT(VkCommandBuffer commandBuffer, VkBool32 negativeOneToOne) {
  stateOf(commandBuffer).negativeOneToOne = negativeOneToOne;
}

// "Color Blending", "Logical Operations", "Multisample Coverage": values per colour attachment
// from firstAttachment on. drawStateFor puts them in DrawState::blend, logicOpEnable and
// alphaToCoverage, which the loop's blending and writes read per draw; the fragment kernel's
// own attachment writes are used only where the draw's state is the one compiled into it
// (raster/draw_fragments.cpp FragmentStage::retarget).
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetColorWriteMaskEXT(VkCommandBuffer commandBuffer, uint32_t firstAttachment,
                                                            uint32_t attachmentCount, const VkColorComponentFlags* pColorWriteMasks) {
  GraphicsRecordState& r = stateOf(commandBuffer);
  for (uint32_t i = 0; i < attachmentCount && firstAttachment + i < abi::kMaxColorAttachments; ++i)
    r.colorWriteMasks[firstAttachment + i] = pColorWriteMasks[i];
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetColorBlendEnableEXT(VkCommandBuffer commandBuffer, uint32_t firstAttachment,
                                                              uint32_t attachmentCount, const VkBool32* pColorBlendEnables) {
  GraphicsRecordState& r = stateOf(commandBuffer);
  for (uint32_t i = 0; i < attachmentCount && firstAttachment + i < abi::kMaxColorAttachments; ++i) {
    const uint32_t bit = 1u << (firstAttachment + i);
    r.colorBlendEnables = pColorBlendEnables[i] ? r.colorBlendEnables | bit : r.colorBlendEnables & ~bit;
  }
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetColorBlendEquationEXT(VkCommandBuffer commandBuffer, uint32_t firstAttachment,
                                                                uint32_t attachmentCount,
                                                                const VkColorBlendEquationEXT* pColorBlendEquations) {
  GraphicsRecordState& r = stateOf(commandBuffer);
  for (uint32_t i = 0; i < attachmentCount && firstAttachment + i < abi::kMaxColorAttachments; ++i)
    r.blendEquations[firstAttachment + i] = pColorBlendEquations[i];
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetLogicOpEnableEXT(VkCommandBuffer commandBuffer, VkBool32 logicOpEnable) {
  stateOf(commandBuffer).logicOpEnable = logicOpEnable;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetAlphaToCoverageEnableEXT(VkCommandBuffer commandBuffer, VkBool32 alphaToCoverageEnable) {
  stateOf(commandBuffer).alphaToCoverage = alphaToCoverageEnable;
}

// "Multisampling": 1, 2, 4, 8 or 16 samples per pixel (framebufferColorSampleCounts and its kind), which
// drawStateFor gives DrawState::raster.samples, deciding sample shading with it.
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetRasterizationSamplesEXT(VkCommandBuffer commandBuffer,
                                                                  VkSampleCountFlagBits rasterizationSamples) {
  stateOf(commandBuffer).rasterizationSamples = uint32_t(rasterizationSamples);
}

// VK_EXT_sample_locations (extendedDynamicState3SampleLocationsEnable): drawStateFor gives it
// RasterState::customSampleLocations.
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetSampleLocationsEnableEXT(VkCommandBuffer commandBuffer, VkBool32 enable) {
  stateOf(commandBuffer).sampleLocationsEnable = enable;
}

// Not offered (their features are false): nothing recorded.
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetRasterizationStreamEXT(VkCommandBuffer, uint32_t) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetConservativeRasterizationModeEXT(VkCommandBuffer, VkConservativeRasterizationModeEXT) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetExtraPrimitiveOverestimationSizeEXT(VkCommandBuffer, float) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetColorBlendAdvancedEXT(VkCommandBuffer, uint32_t, uint32_t, const VkColorBlendAdvancedEXT*) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetViewportWScalingEnableNV(VkCommandBuffer, VkBool32) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetViewportSwizzleNV(VkCommandBuffer, uint32_t, uint32_t, const VkViewportSwizzleNV*) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetCoverageToColorEnableNV(VkCommandBuffer, VkBool32) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetCoverageToColorLocationNV(VkCommandBuffer, uint32_t) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetCoverageModulationModeNV(VkCommandBuffer, VkCoverageModulationModeNV) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetCoverageModulationTableEnableNV(VkCommandBuffer, VkBool32) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetCoverageModulationTableNV(VkCommandBuffer, uint32_t, const float*) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetShadingRateImageEnableNV(VkCommandBuffer, VkBool32) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetRepresentativeFragmentTestEnableNV(VkCommandBuffer, VkBool32) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetCoverageReductionModeNV(VkCommandBuffer, VkCoverageReductionModeNV) {}

}  // extern "C"
