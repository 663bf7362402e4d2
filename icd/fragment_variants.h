// Fragment kernels compiled for the colour blend state a draw sets dynamically
// (VK_EXT_extended_dynamic_state3's COLOR_BLEND_ENABLE / COLOR_BLEND_EQUATION). A pipeline with
// those states dynamic compiles its fragment stage without blending (graphics_pipeline.cpp's
// colorBlendPlan), so its kernel's own attachment writes serve only the draws that do not
// blend; every blended draw went to the loop's per-lane blending and writes. OpenGL through zink
// makes every pipeline so. This keeps what the stage was compiled from (the SPIR-V, entry point,
// specialization and interface, copied: the module, the layout and the pipeline cache may be
// destroyed after the pipeline is created) and compiles the stage again for a blend state the
// first time a draw is recorded with it (llvmpipe keys its fragment variants on such state
// too); later draws with that state find it. The variants live as long as the pipeline.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tessera/shader_abi.h"
#include "tessera/spirv_jit.h"

namespace tessera {

class FragmentVariants {
 public:
  using Plan = std::array<uint32_t, abi::kMaxColorAttachments>;  // abi::packBlend per attachment, 0: unblended

  // Copies what `request` (the fragment stage's request as the pipeline compiled it) points at.
  explicit FragmentVariants(const jit::GraphicsCompileRequest& request);

  // The stage compiled with `plan` as its blend state (compiled now if no draw asked before),
  // or null when it cannot be compiled (the draw then keeps the pipeline's kernel). Safe from
  // any thread.
  std::shared_ptr<const jit::GraphicsProgram> forPlan(const Plan& plan);

 private:
  std::vector<uint32_t> spirv_;
  std::string entryPoint_;
  std::vector<jit::SpecializationEntry> specialization_;
  std::vector<uint8_t> specializationData_;
  jit::ShaderInterface interface_;
  std::mutex mutex_;
  std::map<Plan, std::shared_ptr<const jit::GraphicsProgram>> built_;  // failures kept as null
};

}  // namespace tessera
