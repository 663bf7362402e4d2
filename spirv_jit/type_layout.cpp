#include "type_layout.h"

#include <algorithm>

namespace tessera::jit {

bool isVariablePointerType(const Type* t) {
  return t && t->kind == TypeKind::Pointer && t->storage != spv::StorageClass::PhysicalStorageBuffer;
}

uint32_t flatComponentCount(const Module& module, uint32_t typeId) {
  const Type* t = module.type(typeId);
  if (!t) return 0;
  switch (t->kind) {
    case TypeKind::Bool:
    case TypeKind::Int:
    case TypeKind::Float:
      return 1;
    case TypeKind::Pointer:  // physical storage buffer pointers: 64-bit addresses
      return isVariablePointerType(t) ? kVariablePointerLeaves : 1;
    case TypeKind::Vector:
    case TypeKind::Matrix:
    case TypeKind::Array:
      return t->count * flatComponentCount(module, t->element);
    case TypeKind::Struct: {
      uint32_t n = 0;
      for (uint32_t m : t->members) n += flatComponentCount(module, m);
      return n;
    }
    default:
      return 0;
  }
}

uint32_t TypeLayout::leafCount(uint32_t type) const { return flatComponentCount(module_, type); }

uint32_t TypeLayout::scalarSize(uint32_t scalarType) const {
  const Type* t = module_.type(scalarType);
  if (!t) return 4;
  if (t->kind == TypeKind::Bool) return explicit_ ? 4 : 1;
  if (t->kind == TypeKind::Pointer) return 8;
  return std::max<uint32_t>(1, t->width / 8);
}

uint32_t TypeLayout::alignment(uint32_t typeId) const {
  const Type* t = module_.type(typeId);
  if (!t) return 1;
  switch (t->kind) {
    case TypeKind::Bool:
    case TypeKind::Int:
    case TypeKind::Float:
      return scalarSize(typeId);
    case TypeKind::Vector:
    case TypeKind::Matrix:
    case TypeKind::Array:
    case TypeKind::RuntimeArray:
      return alignment(t->element);
    case TypeKind::Struct: {
      uint32_t a = 1;
      for (uint32_t m : t->members) a = std::max(a, alignment(m));
      return a;
    }
    case TypeKind::Pointer:
      return 8;
    default:
      return 1;
  }
}

LayoutStep TypeLayout::memberStep(uint32_t structType, uint32_t member) const {
  const Type* t = module_.type(structType);
  LayoutStep step;
  if (!t || t->kind != TypeKind::Struct || member >= t->members.size()) return step;
  step.type = t->members[member];
  if (explicit_) {
    const Decorations& d = module_.memberDecorations(structType, member);
    step.offset = d.offset.value_or(0);
    step.context.matrixStride = d.matrixStride.value_or(0);
    step.context.rowMajor = d.rowMajor;
    return step;
  }
  uint32_t offset = 0;
  for (uint32_t i = 0; i <= member; ++i) {
    uint32_t a = alignment(t->members[i]);
    offset = (offset + a - 1) / a * a;
    if (i == member) break;
    offset += size(t->members[i]);
  }
  step.offset = offset;
  return step;
}

LayoutStep TypeLayout::elementStep(uint32_t typeId, const LayoutContext& ctx) const {
  const Type* t = module_.type(typeId);
  LayoutStep step;
  if (!t) return step;
  step.type = t->element;
  switch (t->kind) {
    case TypeKind::Array:
    case TypeKind::RuntimeArray:
      step.context = ctx;  // an array of matrices keeps its member's matrix layout
      step.context.vectorStride = 0;
      if (explicit_) {
        step.stride = module_.decorations(typeId).arrayStride.value_or(0);
        if (!step.stride) step.stride = size(t->element, ctx);
      } else {
        uint32_t a = alignment(t->element);
        step.stride = (size(t->element) + a - 1) / a * a;
      }
      return step;
    case TypeKind::Matrix: {
      const Type* col = module_.type(t->element);
      uint32_t comp = col ? scalarSize(col->element) : 4;
      if (explicit_ && ctx.matrixStride) {
        if (ctx.rowMajor) {
          step.stride = comp;
          step.context.vectorStride = ctx.matrixStride;
        } else {
          step.stride = ctx.matrixStride;
        }
      } else {
        step.stride = size(t->element);
      }
      return step;
    }
    case TypeKind::Vector:
      step.stride = ctx.vectorStride ? ctx.vectorStride : scalarSize(t->element);
      return step;
    default:
      step.type = 0;
      return step;
  }
}

uint32_t TypeLayout::size(uint32_t typeId, const LayoutContext& ctx) const {
  const Type* t = module_.type(typeId);
  if (!t) return 0;
  switch (t->kind) {
    case TypeKind::Bool:
    case TypeKind::Int:
    case TypeKind::Float:
      return scalarSize(typeId);
    case TypeKind::Vector: {
      uint32_t comp = scalarSize(t->element);
      uint32_t stride = ctx.vectorStride ? ctx.vectorStride : comp;
      return stride * (t->count - 1) + comp;
    }
    case TypeKind::Matrix: {
      LayoutStep col = elementStep(typeId, ctx);
      return col.stride * (t->count - 1) + size(t->element, col.context);
    }
    case TypeKind::Array: {
      if (t->count == 0) return 0;
      LayoutStep e = elementStep(typeId, ctx);
      return e.stride * t->count;
    }
    case TypeKind::RuntimeArray:
      return 0;
    case TypeKind::Struct: {
      uint32_t end = 0;
      for (uint32_t m = 0; m < t->members.size(); ++m) {
        LayoutStep s = memberStep(typeId, m);
        end = std::max(end, s.offset + size(s.type, s.context));
      }
      if (!explicit_) {
        uint32_t a = alignment(typeId);
        end = (end + a - 1) / a * a;
      }
      return end;
    }
    case TypeKind::Pointer:
      return isVariablePointerType(t) ? 8 * kVariablePointerLeaves : 8;
    default:
      return 0;
  }
}

void TypeLayout::leaves(uint32_t typeId, const LayoutContext& ctx, uint32_t base, std::vector<Leaf>& out) const {
  const Type* t = module_.type(typeId);
  if (!t) return;
  switch (t->kind) {
    case TypeKind::Bool:
    case TypeKind::Int:
    case TypeKind::Float:
      out.push_back({typeId, base});
      return;
    case TypeKind::Pointer:
      // A variable pointer is its address, floor and limit (translator.h: Translator::pointerValue).
      for (uint32_t i = 0, n = isVariablePointerType(t) ? kVariablePointerLeaves : 1; i < n; ++i)
        out.push_back({typeId, base + 8 * i});
      return;
    case TypeKind::Vector:
    case TypeKind::Matrix:
    case TypeKind::Array: {
      LayoutStep e = elementStep(typeId, ctx);
      for (uint32_t i = 0; i < t->count; ++i) leaves(e.type, e.context, base + i * e.stride, out);
      return;
    }
    case TypeKind::Struct:
      for (uint32_t m = 0; m < t->members.size(); ++m) {
        LayoutStep s = memberStep(typeId, m);
        leaves(s.type, s.context, base + s.offset, out);
      }
      return;
    default:
      return;
  }
}

}  // namespace tessera::jit
