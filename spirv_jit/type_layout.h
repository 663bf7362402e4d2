// Where the scalars of a SPIR-V type live in memory. Two layouts:
//  - Explicit: buffers, push constants and physical storage buffers, from the module's Offset,
//    ArrayStride, MatrixStride and RowMajor decorations (the application chose them).
//  - Natural: Function, Private, Workgroup and interface variables, chosen here: every scalar
//    aligned to its own size, members in order (the "scalar" layout).
// Access chains walk a type one step at a time; each step yields a constant byte offset (struct
// members) or a stride to multiply the index by (arrays, matrix columns, vector components).
#pragma once

#include <cstdint>
#include <vector>

#include "spirv_module.h"

namespace tessera::jit {

// Layout facts that come from an enclosing struct member rather than the type itself.
struct LayoutContext {
  uint32_t matrixStride = 0;   // the matrix (or array of matrices) being walked
  bool rowMajor = false;
  uint32_t vectorStride = 0;   // the vector being walked is a row-major matrix's column
};

struct Leaf {
  uint32_t type;    // scalar type id (Bool, Int or Float)
  uint32_t offset;  // bytes from the start of the composite
};

struct LayoutStep {
  uint32_t type = 0;          // the element or member reached
  LayoutContext context;
  uint32_t offset = 0;        // constant byte offset (struct member)
  uint32_t stride = 0;        // byte stride per index (arrays, columns, components)
};

class TypeLayout {
 public:
  TypeLayout(const Module& module, bool explicitLayout) : module_(module), explicit_(explicitLayout) {}

  bool isExplicit() const { return explicit_; }
  // Bytes of one scalar of this type in memory (booleans take one byte in natural layout).
  uint32_t scalarSize(uint32_t scalarType) const;
  // Size and alignment in this layout. Runtime arrays count as zero elements.
  uint32_t size(uint32_t type, const LayoutContext& ctx = {}) const;
  uint32_t alignment(uint32_t type) const;

  // One access-chain step into a composite of type `type`: member `index` of a struct
  // (index must be a constant), or any element of an array, matrix or vector.
  LayoutStep memberStep(uint32_t structType, uint32_t member) const;
  LayoutStep elementStep(uint32_t type, const LayoutContext& ctx) const;

  // Every scalar of a value of `type`, in the order of its flattened components.
  void leaves(uint32_t type, const LayoutContext& ctx, uint32_t base, std::vector<Leaf>& out) const;
  // Number of scalars of a type (its flattened component count). Runtime arrays are 0.
  uint32_t leafCount(uint32_t type) const;

 private:
  const Module& module_;
  bool explicit_;
};

// A logical pointer (any storage class but PhysicalStorageBuffer) as a value: the form
// VK_KHR_variable_pointers' pointers take when OpSelect, OpPhi, function results or Function /
// Private variables carry them (translator.h: Translator::pointerValue). Three 64-bit leaves:
// the absolute address, then the lowest and one past the highest byte the pointer may touch,
// so that every access through it stays bounds-checked against its descriptor's range.
constexpr uint32_t kVariablePointerLeaves = 3;
bool isVariablePointerType(const Type* t);

// Flattened component count of a value type (independent of layout).
uint32_t flatComponentCount(const Module& module, uint32_t type);

}  // namespace tessera::jit
