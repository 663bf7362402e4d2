// FragmentVariants (fragment_variants.h): the fragment stage compiled again per blend state.
#include "fragment_variants.h"

#include <algorithm>

namespace tessera {

FragmentVariants::FragmentVariants(const jit::GraphicsCompileRequest& request)
    : spirv_(request.spirv.begin(), request.spirv.end()),
      entryPoint_(request.entryPoint),
      specialization_(request.specialization.begin(), request.specialization.end()),
      interface_(request.interface) {
  const auto* data = static_cast<const uint8_t*>(request.specializationData);
  if (data) specializationData_.assign(data, data + request.specializationDataSize);
}

std::shared_ptr<const jit::GraphicsProgram> FragmentVariants::forPlan(const Plan& plan) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = built_.find(plan); it != built_.end()) return it->second;
  jit::GraphicsCompileRequest req;
  req.stage = jit::GraphicsStage::Fragment;
  req.spirv = spirv_;
  req.entryPoint = entryPoint_;
  req.specialization = specialization_;
  req.specializationData = specializationData_.empty() ? nullptr : specializationData_.data();
  req.specializationDataSize = specializationData_.size();
  req.interface = interface_;
  std::copy(plan.begin(), plan.end(), req.interface.colorBlend);
  // The in-process and disk caches still serve (the application's VkPipelineCache may be gone).
  const jit::GraphicsCompileResult r = jit::compileGraphicsStage(req);
  std::shared_ptr<const jit::GraphicsProgram> program =
      r.status == jit::CompileStatus::Success && r.program && r.program->fragment ? r.program : nullptr;
  built_.emplace(plan, program);
  return program;
}

}  // namespace tessera
