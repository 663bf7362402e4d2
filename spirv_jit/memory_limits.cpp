#include "memory_limits.h"

#include <algorithm>

namespace tessera::jit {
namespace {

constexpr uint64_t kHuge = uint64_t(1) << 40;  // saturation: nothing real is this large

// Bytes of the scalars of a value of `type` (no padding), saturating at kHuge.
uint64_t scalarBytes(const Module& m, uint32_t typeId, int depth = 0) {
  const Type* t = m.type(typeId);
  if (!t || depth > 64) return 0;
  auto times = [](uint64_t a, uint64_t b) { return b && a > kHuge / b ? kHuge : std::min(kHuge, a * b); };
  switch (t->kind) {
    case TypeKind::Bool:
      return 1;
    case TypeKind::Int:
    case TypeKind::Float:
      return std::max<uint32_t>(1, t->width / 8);
    case TypeKind::Vector:
    case TypeKind::Matrix:
    case TypeKind::Array:
      return times(scalarBytes(m, t->element, depth + 1), t->count);
    case TypeKind::Struct: {
      uint64_t sum = 0;
      for (uint32_t member : t->members) sum = std::min(kHuge, sum + scalarBytes(m, member, depth + 1));
      return sum;
    }
    default:
      return 0;  // runtime arrays, pointers, opaque types: no storage of their own here
  }
}

uint64_t pointeeBytes(const Module& m, uint32_t pointerType) {
  const Type* p = m.type(pointerType);
  return p ? scalarBytes(m, p->element) : 0;
}

}  // namespace

bool checkMemoryLimits(const Module& module, std::string* message) {
  uint64_t shared = 0, invocation = 0, aliasedBlocks = 0;
  // Under WorkgroupMemoryExplicitLayoutKHR, Block-decorated Workgroup variables alias one another
  // (translate_compute.cpp assignGlobalStorage): the largest counts, not their sum.
  const bool aliasing = module.hasCapability(spv::Capability::WorkgroupMemoryExplicitLayoutKHR);
  for (const GlobalVariable& g : module.globals()) {
    const Type* pt = module.type(g.type);
    if (g.storage == spv::StorageClass::Workgroup && aliasing && pt && module.decorations(pt->element).block)
      aliasedBlocks = std::max(aliasedBlocks, pointeeBytes(module, g.type));
    else if (g.storage == spv::StorageClass::Workgroup) shared = std::min(kHuge, shared + pointeeBytes(module, g.type));
    else if (g.storage == spv::StorageClass::Private) invocation = std::min(kHuge, invocation + pointeeBytes(module, g.type));
  }
  shared = std::min(kHuge, shared + aliasedBlocks);
  for (const Function& f : module.functions())
    for (const Block& b : f.blocks)
      for (const Instruction& i : b.body)
        if (i.op == spv::Op::OpVariable) invocation = std::min(kHuge, invocation + pointeeBytes(module, i.type));
  if (shared > kMaxComputeSharedMemorySize) {
    *message = "Workgroup variables of " + std::to_string(shared) + " bytes exceed maxComputeSharedMemorySize (" +
               std::to_string(kMaxComputeSharedMemorySize) + ", VUID-RuntimeSpirv-Workgroup-06530)";
    return false;
  }
  if (invocation > kMaxInvocationMemoryBytes) {
    *message = "Private and Function variables of " + std::to_string(invocation) +
               " bytes per invocation exceed the driver's limit of " + std::to_string(kMaxInvocationMemoryBytes);
    return false;
  }
  return true;
}

}  // namespace tessera::jit
