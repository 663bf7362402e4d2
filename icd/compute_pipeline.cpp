// vkCreateComputePipelines / vkDestroyPipeline. Pipelines of one call compile in parallel on
// the thread pool. A module the JIT rejects gives VK_ERROR_UNKNOWN (VK_ERROR_INVALID_SHADER_NV
// where that extension is enabled) and a debug-utils message naming the problem.
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"
#include "instance.h"
#include "physical_device.h"
#include "pipeline.h"
#include "pipeline_cache_store.h"
#include "pipeline_layout.h"
#include "shader_stage.h"
#include "tessera/cpu_info.h"
#include "tessera/thread_pool.h"

namespace tessera {
namespace {

struct Outcome {
  VkResult result = VK_SUCCESS;
  std::string message;
  std::shared_ptr<const jit::ComputeProgram> program;
  bool cacheHit = false;
  uint64_t nanoseconds = 0;
};

Outcome compileOne(Device* dev, const VkComputePipelineCreateInfo& info, PipelineCacheStore* cache) {
  Outcome out;
  auto start = std::chrono::steady_clock::now();
  const VkPipelineShaderStageCreateInfo& stage = info.stage;
  StageSource src = stageSource(stage);
  jit::ComputeCompileRequest req;
  req.spirv = src.code;
  req.entryPoint = src.entryPoint;
  req.specialization = src.specialization;
  req.specializationData = src.specializationData;
  req.specializationDataSize = src.specializationDataSize;
  req.interface = shaderInterface(*dev->physical, fromHandle<PipelineLayout>(info.layout));
  req.interface.simdWidth = computeStageSimdWidth(*dev->physical, stage, src.code, wideComputeSimdWidth());
  req.external = cache;
  req.cacheOnly = (info.flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) != 0;
  jit::CompileResult r = jit::compileCompute(req);
  out.nanoseconds = uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
  out.cacheHit = r.cacheHit;
  switch (r.status) {
    case jit::CompileStatus::Success:
      out.program = std::move(r.program);
      break;
    case jit::CompileStatus::CompileRequired:
      out.result = VK_PIPELINE_COMPILE_REQUIRED;
      break;
    default:
      out.result = VK_ERROR_UNKNOWN;
      out.message = std::move(r.message);
      break;
  }
  return out;
}

void writeFeedback(const VkComputePipelineCreateInfo& info, const Outcome& o) {
  auto* fb = findInChain<VkPipelineCreationFeedbackCreateInfo>(info.pNext, VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO);
  if (!fb) return;
  VkPipelineCreationFeedback f{};
  if (o.result == VK_SUCCESS) {
    f.flags = VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT;
    if (o.cacheHit) f.flags |= VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT;
    f.duration = o.nanoseconds;
  }
  if (fb->pPipelineCreationFeedback) *fb->pPipelineCreationFeedback = f;
  for (uint32_t i = 0; i < fb->pipelineStageCreationFeedbackCount; ++i) fb->pPipelineStageCreationFeedbacks[i] = f;
}

}  // namespace
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateComputePipelines(VkDevice device, VkPipelineCache pipelineCache,
                                                               uint32_t createInfoCount,
                                                               const VkComputePipelineCreateInfo* pCreateInfos,
                                                               const VkAllocationCallbacks* pAllocator,
                                                               VkPipeline* pPipelines) {
  Device* dev = fromHandle<Device>(device);
  const VkAllocationCallbacks* alloc = pickAllocator(pAllocator, dev->allocator());
  PipelineCacheStore* cache = pipelineCache ? pipelineCacheStore(pipelineCache) : nullptr;
  std::vector<Outcome> outcomes(createInfoCount);
  auto compile = [&](size_t i) { outcomes[i] = compileOne(dev, pCreateInfos[i], cache); };
  if (createInfoCount == 1) compile(0);
  else ThreadPool::shared().parallelFor(createInfoCount, compile);

  VkResult result = VK_SUCCESS;
  bool stop = false;
  for (uint32_t i = 0; i < createInfoCount; ++i) {
    Outcome& o = outcomes[i];
    pPipelines[i] = VK_NULL_HANDLE;
    if (stop) continue;
    writeFeedback(pCreateInfos[i], o);
    if (o.result != VK_SUCCESS) {
      if (o.result != VK_PIPELINE_COMPILE_REQUIRED)
        reportError(dev->instance, VK_OBJECT_TYPE_SHADER_MODULE, uint64_t(pCreateInfos[i].stage.module),
                    "vkCreateComputePipelines: pipeline %u: %s", i, o.message.c_str());
      if (result == VK_SUCCESS) result = o.result;
      // VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT: later pipelines stay VK_NULL_HANDLE.
      stop = (pCreateInfos[i].flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) != 0;
      continue;
    }
    auto* p = hostNew<Pipeline>(alloc, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!p) {
      result = VK_ERROR_OUT_OF_HOST_MEMORY;
      continue;
    }
    p->bindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
    p->compute = std::move(o.program);
    p->dynamicOffsets = DynamicOffsetMap::of(fromHandle<PipelineLayout>(pCreateInfos[i].layout));
    pPipelines[i] = toHandle<VkPipeline>(p);
  }
  return result;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyPipeline(VkDevice device, VkPipeline pipeline, const VkAllocationCallbacks* pAllocator) {
  if (!pipeline) return;
  hostDelete(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()), fromHandle<Pipeline>(pipeline));
}

}  // extern "C"
