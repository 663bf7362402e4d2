#include "spirv_reflect.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <map>

#include "tessera/shader_abi.h"

namespace tessera_fuzz {
namespace {

// Calls `visit(opcode, operands)` for each whole instruction after the 5-word header; stops at
// a zero or overlong word count.
template <typename F>
void forEachInstruction(std::span<const uint32_t> words, F&& visit) {
  size_t pos = 5;
  while (pos < words.size()) {
    const uint32_t count = words[pos] >> 16, opcode = words[pos] & 0xFFFF;
    if (count == 0 || count > words.size() - pos) return;
    visit(opcode, words.subspan(pos + 1, count - 1));
    pos += count;
  }
}

constexpr uint32_t kOpEntryPoint = 15, kOpTypeImage = 25, kOpTypeSampler = 26, kOpTypeSampledImage = 27,
                   kOpTypeArray = 28, kOpTypeRuntimeArray = 29, kOpTypePointer = 32, kOpVariable = 59,
                   kOpDecorate = 71, kOpConstant = 43;
constexpr uint32_t kDecorationBlock = 2, kDecorationBufferBlock = 3, kDecorationBinding = 33,
                   kDecorationDescriptorSet = 34;
constexpr uint32_t kStorageUniform = 2, kStorageStorageBuffer = 12;

}  // namespace

EntryPoint firstEntryPoint(std::span<const uint32_t> words) {
  EntryPoint e;
  forEachInstruction(words, [&](uint32_t op, std::span<const uint32_t> ops) {
    if (e.found || op != kOpEntryPoint || ops.size() < 3) return;
    e.found = true;
    e.executionModel = ops[0];
    e.name.clear();
    for (size_t i = 2; i < ops.size(); ++i)
      for (int b = 0; b < 4; ++b) {
        char c = char((ops[i] >> (8 * b)) & 0xFF);
        if (!c) return;
        e.name.push_back(c);
      }
  });
  return e;
}

std::vector<tessera::jit::DescriptorBinding> reflectBindings(std::span<const uint32_t> words) {
  struct Type {
    uint32_t op = 0;
    std::vector<uint32_t> ops;
  };
  std::map<uint32_t, Type> types;
  std::map<uint32_t, uint32_t> constants, set, binding, storageClass, pointee;
  std::map<uint32_t, bool> block, bufferBlock;
  std::vector<uint32_t> variables;
  forEachInstruction(words, [&](uint32_t op, std::span<const uint32_t> ops) {
    if (op == kOpDecorate && ops.size() >= 2) {
      if (ops[1] == kDecorationDescriptorSet && ops.size() >= 3) set[ops[0]] = ops[2];
      if (ops[1] == kDecorationBinding && ops.size() >= 3) binding[ops[0]] = ops[2];
      if (ops[1] == kDecorationBlock) block[ops[0]] = true;
      if (ops[1] == kDecorationBufferBlock) bufferBlock[ops[0]] = true;
    } else if (op == kOpConstant && ops.size() >= 3) {
      constants[ops[1]] = ops[2];
    } else if (op == kOpVariable && ops.size() >= 3) {
      storageClass[ops[1]] = ops[2];
      pointee[ops[1]] = ops[0];
      variables.push_back(ops[1]);
    } else if (op >= kOpTypeImage && op <= kOpTypePointer && !ops.empty()) {
      types[ops[0]] = {op, {ops.begin() + 1, ops.end()}};
    }
  });
  std::map<uint32_t, uint32_t> nextOffset;  // by set
  std::vector<tessera::jit::DescriptorBinding> out;
  for (uint32_t v : variables) {
    if (!set.count(v) || !binding.count(v)) continue;
    // Through the pointer and any arrays to the descriptor's own type.
    uint32_t type = pointee[v], count = 1;
    if (types[type].op == kOpTypePointer && types[type].ops.size() >= 2) type = types[type].ops[1];
    for (int depth = 0; depth < 4; ++depth) {
      const Type& t = types[type];
      if (t.op == kOpTypeArray && t.ops.size() >= 2) {
        count *= std::min<uint32_t>(std::max<uint32_t>(constants[t.ops[1]], 1), 64);
        type = t.ops[0];
      } else if (t.op == kOpTypeRuntimeArray && !t.ops.empty()) {
        count *= 16;
        type = t.ops[0];
      }
    }
    const Type& t = types[type];
    uint32_t kind = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    if (t.op == kOpTypeSampler) kind = VK_DESCRIPTOR_TYPE_SAMPLER;
    else if (t.op == kOpTypeSampledImage) kind = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    else if (t.op == kOpTypeImage && t.ops.size() >= 6) {
      const uint32_t dim = t.ops[1], sampled = t.ops[5];
      if (dim == 6) kind = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
      else if (dim == 5) kind = sampled == 2 ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
      else kind = sampled == 2 ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    } else if (storageClass[v] == kStorageUniform && block[type] && !bufferBlock[type]) {
      kind = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    } else if (storageClass[v] != kStorageUniform && storageClass[v] != kStorageStorageBuffer) {
      continue;  // not a descriptor (or not one this reflection knows)
    }
    uint32_t& offset = nextOffset[set[v]];
    out.push_back({set[v], binding[v], kind, count, offset, -1});
    offset += count * uint32_t(tessera::abi::kDescriptorSize);
  }
  return out;
}

}  // namespace tessera_fuzz
