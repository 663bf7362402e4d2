// VK_KHR_pipeline_library + VK_EXT_graphics_pipeline_library ("Graphics Pipeline Libraries").
// A library pipeline compiles nothing: it keeps a deep copy of the create-info state of the parts
// it was created with (GraphicsLibraryState), so that the application may destroy shader
// modules, render passes, layouts and the library itself whenever the spec allows. Linking
// (VkPipelineLibraryCreateInfoKHR) assembles one complete VkGraphicsPipelineCreateInfo from the
// libraries' copies and the create info's own parts (LinkedCreateInfo), with the union of the
// libraries' pipeline layouts, and the complete-pipeline path compiles it. Fast linking
// (graphicsPipelineLibraryFastLinking): a library with shader stages also compiles them when it
// is created, with what it knows (graphics_pipeline.cpp precompileLibraryStages), and keeps the
// programs; a link without VK_PIPELINE_CREATE_LINK_TIME_OPTIMIZATION_BIT_EXT asks for the
// stages with the same limits (StageKnowledge) and so finds them compiled, while a link with
// it compiles every stage against the whole pipeline's state.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>
#include <vulkan/vulkan_core.h>

namespace tessera::jit {
struct GraphicsProgram;
}

namespace tessera {

struct PipelineLayout;

constexpr VkGraphicsPipelineLibraryFlagsEXT kAllGraphicsParts =
    VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT |
    VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT |
    VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT | VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT;

// The parts a create info describes itself ("VkGraphicsPipelineLibraryCreateInfoEXT"): its flags;
// without the structure none for a library or a create info that links libraries, else all four.
VkGraphicsPipelineLibraryFlagsEXT ownGraphicsParts(const VkGraphicsPipelineCreateInfo& info);

// The libraries a create info links (VkPipelineLibraryCreateInfoKHR), or nullptr.
const VkPipelineLibraryCreateInfoKHR* linkedLibraries(const VkGraphicsPipelineCreateInfo& info);

// The parts whose state `state` makes dynamic (graphics_library_dynamic_state.cpp).
VkGraphicsPipelineLibraryFlagsEXT dynamicStateParts(VkDynamicState state);

// A deep copy of the state of some parts of a graphics pipeline. Pointers in `info` point into
// this object (or are null for state outside `parts`); shader stages carry their SPIR-V inline
// (a VkShaderModuleCreateInfo in the stage's pNext, module VK_NULL_HANDLE); a render pass is kept
// as the VkPipelineRenderingCreateInfo its subpass amounts to, which is all pipeline creation
// reads of it (graphics_pipeline.cpp readableStates). Not copyable: `info` points into it.
class GraphicsLibraryState {
 public:
  // Copies `parts` of `info`. `inheritedViewIndexStages`: for a library linked from libraries,
  // their stages that read ViewIndex as DeviceIndex. Throws std::bad_alloc.
  GraphicsLibraryState(const VkGraphicsPipelineCreateInfo& info, VkGraphicsPipelineLibraryFlagsEXT parts,
                       VkShaderStageFlags inheritedViewIndexStages = 0);
  ~GraphicsLibraryState();
  GraphicsLibraryState(const GraphicsLibraryState&) = delete;
  GraphicsLibraryState& operator=(const GraphicsLibraryState&) = delete;

  VkGraphicsPipelineLibraryFlagsEXT parts = 0;
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  // The create info's dynamic states that belong to `parts` (dynamicStateParts): a library
  // ignores the others, and a link must not take them from it.
  std::vector<VkDynamicState> dynamicStates;
  // Rendering formats and view mask: from VkPipelineRenderingCreateInfo or the render pass's subpass.
  bool hasRendering = false;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  // A copy of info.layout (null when it had none), owned.
  PipelineLayout* layout = nullptr;
  // The stages created with VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT: the flag of the
  // library a stage comes from holds for that stage alone.
  VkShaderStageFlags viewIndexFromDeviceIndexStages = 0;
  // The stages compiled when the library was created (fast linking), kept alive for links.
  std::vector<std::shared_ptr<const jit::GraphicsProgram>> precompiled;

 private:
  template <typename T>
  T* copy(const T* src, size_t count = 1);
  const void* copyChain(const void* pNext);
  void copyStage(const VkPipelineShaderStageCreateInfo& src, VkPipelineShaderStageCreateInfo& dst);
  std::vector<std::unique_ptr<uint8_t[]>> blocks_;  // every copied struct and array
  std::vector<VkPipelineShaderStageCreateInfo> stages_;
};

// A complete create info assembled from a create info that links libraries. `info` is valid
// while this object and the libraries live (pipeline creation only).
class LinkedCreateInfo {
 public:
  // Throws std::bad_alloc.
  explicit LinkedCreateInfo(const VkGraphicsPipelineCreateInfo& link);
  ~LinkedCreateInfo();
  LinkedCreateInfo(const LinkedCreateInfo&) = delete;
  LinkedCreateInfo& operator=(const LinkedCreateInfo&) = delete;

  // What the stages are compiled against beyond their own part: the vertex input state (the
  // vertex stage fetches its attributes itself) and the fragment output interface (the
  // fragment stage writes and blends its colour attachments itself). All of it for a complete
  // pipeline or a link with link-time optimization; for a link without, what the library each
  // stage comes from held, as it compiled the stage then.
  struct StageKnowledge {
    bool vertexInput = true, fragmentOutput = true;
  };
  static StageKnowledge knowledgeOf(VkGraphicsPipelineLibraryFlagsEXT parts) {
    return {(parts & VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT) != 0,
            (parts & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT) != 0};
  }

  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  VkGraphicsPipelineLibraryFlagsEXT parts = 0;  // what the libraries and the create info give together
  StageKnowledge knowledge;
  // Its stages that read ViewIndex as DeviceIndex (GraphicsLibraryState); `info.flags` leaves
  // VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT out, as it holds per library.
  VkShaderStageFlags viewIndexFromDeviceIndexStages = 0;

 private:
  std::unique_ptr<GraphicsLibraryState> own_;  // the create info's own parts
  std::vector<VkPipelineShaderStageCreateInfo> stages_;
  std::vector<VkDynamicState> dynamicStates_;
  VkPipelineDynamicStateCreateInfo dynamic_{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  VkPipelineRenderingCreateInfo rendering_{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  PipelineLayout* layout_ = nullptr;  // the union of the parts' layouts, owned
};

}  // namespace tessera
