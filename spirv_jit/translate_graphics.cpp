// Vertex and fragment kernels: the batch state they are handed (shader_abi.h VertexBatch /
// FragmentBatch), how interface variables travel, graphics built-ins, derivatives and helper
// invocations.
//
// Interface variables live in the kernel's per-lane (private) block like Private variables:
// the prologue copies each input scalar from the batch's SoA words into its slot, the
// epilogue copies each output scalar out, so that everything in between (access chains,
// dynamic indexing of arrays, partial writes) is ordinary lane memory that LLVM's SROA turns
// back into registers. Locations follow the spec's "Location Assignment" rules: a 32-bit
// scalar or vector takes one location (starting at its Component), matrix columns and array
// elements one location each, struct members consecutive unless they carry a Location. A 64-bit
// scalar is two 32-bit components (two leaves: its low and high word), so a three- or
// four-component 64-bit vector spills into a second location.
#include <spirv/unified1/GLSL.std.450.h>

#include <llvm/IR/Intrinsics.h>

#include "tessera/shader_abi.h"
#include "distance_use.h"
#include "translator.h"

namespace tessera::jit {
namespace {

// Bits of a scalar or of a vector's components.
uint32_t componentWidth(const Module& m, const Type* t) {
  if (t && (t->kind == TypeKind::Vector || t->kind == TypeKind::Matrix)) t = m.type(t->element);
  if (t && t->kind == TypeKind::Vector) t = m.type(t->element);
  return t ? t->width : 32;
}

// Locations a value of `type` occupies ("Location Assignment": a 64-bit three- or
// four-component vector takes two, matrices one or two per column).
uint32_t locationCount(const Module& m, uint32_t type) {
  const Type* t = m.type(type);
  if (!t) return 1;
  switch (t->kind) {
    case TypeKind::Vector: return componentWidth(m, t) == 64 && t->count > 2 ? 2 : 1;
    case TypeKind::Matrix: return t->count * locationCount(m, t->element);
    case TypeKind::Array: return t->count * locationCount(m, t->element);
    case TypeKind::Struct: {
      uint32_t n = 0;
      for (uint32_t member : t->members) n += locationCount(m, member);
      return n;
    }
    default: return 1;
  }
}

struct InterfaceWalker {
  Translator& t;
  const Module& m;
  const TypeLayout& layout;
  std::vector<InterfaceLeaf>& out;
  // Types and leaves walked so far. A valid interface has a few hundred of each (locations,
  // per-vertex arrays of 32, ClipDistance[8]); a module may declare arrays of billions (found
  // by fuzz/spirv_jit_fuzzer: ClipDistance[134217729] asked for 6 GB of leaves), which are
  // refused before they are walked.
  static constexpr size_t kMaxWalked = size_t(1) << 16;
  size_t walked = 0;

  void scalar(uint32_t type, uint32_t offset, uint32_t loc, uint32_t comp, bool flat, bool noPersp, bool centroid,
              int32_t builtIn, uint32_t element) {
    const Type* st = m.type(type);
    if (!st || (st->kind != TypeKind::Float && st->kind != TypeKind::Int && st->kind != TypeKind::Bool))
      t.fail("unsupported interface variable type");
    // A 64-bit scalar is two words: components `comp` and `comp + 1`, the second one spilling
    // into the next location for the third and fourth components of a 64-bit vector.
    const uint32_t words = st->width == 64 ? 2 : 1;
    if (words == 2 && builtIn >= 0) t.fail("a 64-bit built-in interface variable");
    if (words == 2 && comp % 2) t.fail("a 64-bit interface variable at an odd Component");
    if (out.size() + words > kMaxWalked) t.fail("an interface with more components than any stage's limits allow");
    for (uint32_t h = 0; h < words; ++h) {
      InterfaceLeaf l;
      l.type = type;
      l.offset = offset;
      l.location = words == 2 ? loc + (comp + h) / 4 : loc;
      l.component = words == 2 ? (comp + h) % 4 : comp;
      l.half = uint8_t(h);
      // Integers are always flat; 64-bit inputs must be decorated Flat ("Interpolation
      // Decorations"), which the spec requires of every 64-bit fragment input.
      l.flat = flat || st->kind != TypeKind::Float || words == 2;
      l.noPerspective = noPersp;
      l.centroid = centroid;
      l.builtIn = builtIn;
      l.builtInElement = element;
      out.push_back(l);
    }
  }

  void value(uint32_t type, uint32_t offset, uint32_t loc, uint32_t comp, bool flat, bool noPersp, bool centroid,
             int32_t builtIn) {
    const Type* tt = m.type(type);
    if (!tt) t.fail("unknown interface type");
    if (++walked > kMaxWalked || (tt->kind == TypeKind::Array && tt->count > kMaxWalked))
      t.fail("an interface variable larger than any stage's limits allow");
    switch (tt->kind) {
      case TypeKind::Vector: {
        LayoutStep step = layout.elementStep(type, {});
        const uint32_t words = componentWidth(m, tt) == 64 ? 2 : 1;
        for (uint32_t i = 0; i < tt->count; ++i)
          scalar(tt->element, offset + i * step.stride, loc, comp + i * words, flat, noPersp, centroid, builtIn, i);
        return;
      }
      case TypeKind::Matrix: {
        LayoutStep step = layout.elementStep(type, {});
        const uint32_t per = locationCount(m, tt->element);
        for (uint32_t c = 0; c < tt->count; ++c)
          value(tt->element, offset + c * step.stride, loc + c * per, 0, flat, noPersp, centroid, builtIn);
        return;
      }
      case TypeKind::Array: {
        LayoutStep step = layout.elementStep(type, {});
        uint32_t per = locationCount(m, tt->element);
        for (uint32_t i = 0; i < tt->count; ++i) {
          if (builtIn >= 0) {  // ClipDistance[i], SampleMask[i]: element i of the built-in
            scalar(tt->element, offset + i * step.stride, 0, 0, flat, noPersp, centroid, builtIn, i);
            continue;
          }
          value(tt->element, offset + i * step.stride, loc + i * per, comp, flat, noPersp, centroid, builtIn);
        }
        return;
      }
      case TypeKind::Struct: {
        uint32_t next = loc;
        for (uint32_t i = 0; i < tt->members.size(); ++i) {
          const Decorations& md = m.memberDecorations(type, i);
          LayoutStep step = layout.memberStep(type, i);
          uint32_t memberType = tt->members[i];
          if (md.builtIn) {
            value(memberType, offset + step.offset, 0, 0, flat, noPersp, centroid, int32_t(*md.builtIn));
            continue;
          }
          uint32_t at = md.location ? *md.location : next;
          value(memberType, offset + step.offset, at, md.component.value_or(0), flat || md.flat,
                noPersp || md.noPerspective, centroid || md.centroid, -1);
          next = at + locationCount(m, memberType);
        }
        return;
      }
      default:
        scalar(type, offset, loc, comp, flat, noPersp, centroid, builtIn, 0);
    }
  }
};

// A struct member decorated Sample somewhere inside `type` (an input block's members).
bool hasSampleMember(const Module& m, uint32_t type, int depth = 0) {
  const Type* t = m.type(type);
  if (!t || depth > 16) return false;
  if (t->kind == TypeKind::Array) return hasSampleMember(m, t->element, depth + 1);
  if (t->kind != TypeKind::Struct) return false;
  for (uint32_t i = 0; i < t->members.size(); ++i)
    if (m.memberDecorations(type, i).sample || hasSampleMember(m, t->members[i], depth + 1)) return true;
  return false;
}

// How the draw loop interpolated an interpolant: the decorations of its variable and of the
// block members its access chains pass through (combined as InterfaceWalker does).
struct InterpolantDecorations {
  bool flat = false, noPerspective = false, centroid = false;
};

const Instruction* functionDefinition(const Module& m, uint32_t id) {
  for (const Function& f : m.functions())
    for (const Block& b : f.blocks)
      for (const Instruction& i : b.body)
        if (i.result == id) return &i;
  return nullptr;
}

InterpolantDecorations interpolantDecorations(const Module& m, uint32_t pointer) {
  InterpolantDecorations out;
  std::vector<const Instruction*> chains;  // the access chains from the pointer back to its variable
  for (int guard = 0; guard < 64 && !m.global(pointer); ++guard) {
    const Instruction* def = functionDefinition(m, pointer);
    if (!def) return out;
    if (def->op == spv::Op::OpAccessChain || def->op == spv::Op::OpInBoundsAccessChain) chains.push_back(def);
    else if (def->op != spv::Op::OpCopyObject) return out;
    pointer = def->operand(0);
  }
  const GlobalVariable* g = m.global(pointer);
  const Type* pt = g ? m.type(g->type) : nullptr;
  if (!pt) return out;
  const Decorations& d = m.decorations(pointer);
  out.flat = d.flat;
  out.noPerspective = d.noPerspective;
  out.centroid = d.centroid;
  uint32_t type = pt->element;
  for (auto it = chains.rbegin(); it != chains.rend(); ++it)
    for (uint32_t k = 1; k < (*it)->operandCount; ++k) {
      const Type* t = m.type(type);
      if (!t) return out;
      if (t->kind != TypeKind::Struct) {
        type = t->element;
        continue;
      }
      std::optional<uint64_t> member = m.constantValue((*it)->operand(k));
      if (!member || *member >= t->members.size()) return out;
      const Decorations& md = m.memberDecorations(type, uint32_t(*member));
      out.flat |= md.flat;
      out.noPerspective |= md.noPerspective;
      out.centroid |= md.centroid;
      type = t->members[*member];
    }
  const Type* leaf = m.type(type);
  while (leaf && leaf->kind != TypeKind::Float && leaf->kind != TypeKind::Int && leaf->kind != TypeKind::Bool)
    leaf = m.type(leaf->element);
  if (leaf && leaf->kind != TypeKind::Float) out.flat = true;  // integers are always flat
  return out;
}

}  // namespace

llvm::Value* Translator::batchField(size_t offset, llvm::Type* type) {
  return b().CreateLoad(type, b().CreateConstGEP1_32(b().getInt8Ty(), wgState_, uint32_t(offset)));
}

// ViewIndex: the same for the whole draw, so the draw's resources carry it
// (abi::BoundResources::viewIndex; 0 outside multiview render pass instances). With
// VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT it is the DeviceIndex, always 0.
llvm::Value* Translator::viewIndex() {
  if (interface_.viewIndexFromDeviceIndex) return b().getInt32(0);
  return b().CreateLoad(b().getInt32Ty(),
                        b().CreateConstGEP1_32(b().getInt8Ty(), resources_, uint32_t(offsetof(abi::BoundResources, viewIndex))));
}

llvm::Value* Translator::aliveMask() {
  auto& B = b();
  llvm::Value* bits = batchField(offsetof(abi::FragmentBatch, alive), B.getInt32Ty());
  llvm::Type* vi = laneType(B.getInt32Ty());
  llvm::Value* lanesBits = B.CreateShl(constInt(vi, 1), laneIndex());
  return B.CreateICmpNE(B.CreateAnd(splat(bits), lanesBits), llvm::Constant::getNullValue(vi));
}

llvm::Value* Translator::sideEffectMask() {
  if (stage_ != Stage::Fragment) return mask_;
  if (facts_) facts_->hasSideEffects = true;
  return b().CreateAnd(mask_, aliveMask());
}

llvm::Value* Translator::quadDerivative(llvm::Value* v, bool yDirection, bool coarse) {
  auto& B = b();
  if (!v->getType()->isVectorTy()) return llvm::Constant::getNullValue(v->getType());  // uniform
  // Lane l of quad q = l & ~3, pixel p = l & 3 ((x,y), (x+1,y), (x,y+1), (x+1,y+1)).
  // Fine: dx = v[l | 1] - v[l & ~1], dy = v[l | 2] - v[l & ~2]; coarse uses the quad's first
  // row (dx) or column (dy) for all four pixels.
  std::vector<int> hi, lo;
  for (uint32_t l = 0; l < width(); ++l) {
    uint32_t base = coarse ? (l & ~3u) : l;
    uint32_t bit = yDirection ? 2u : 1u;
    hi.push_back(int(base | bit));
    lo.push_back(int(base & ~bit));
  }
  return B.CreateFSub(B.CreateShuffleVector(v, hi), B.CreateShuffleVector(v, lo));
}

// GLSL.std.450 InterpolateAtCentroid, InterpolateAtSample and InterpolateAtOffset.
//
// The batch holds each input as the draw loop interpolated it for this invocation: at
// FragCoord.xy (the pixel centre, or the shaded sample's location with per-sample shading), or,
// for an input decorated Centroid, at the lane's centroid location floor(FragCoord.xy) +
// centroid. The value at another location comes from the quad: an input interpolated without
// perspective (NoPerspective) is one plane in window coordinates over a triangle, and the draw
// loop gives helper lanes that plane's values too, so
//   v(target) = v + (target - base) . grad v
// with grad v from the quad's fine differences, exact up to rounding. Where the lanes' base
// locations are centroids they need not lie one pixel apart: grad v then solves the 2x2 system
// of the lane's row and column differences (positions known from the batch). A perspective-
// correct input is not a plane, but u = v / w and q = 1 / w (FragCoord.w) are, so it is
// extrapolated as (u + d . grad u) / (q + d' . grad q): exact as well for triangles, where the
// first-order expansion of v itself would only be a first-order approximation. On lines and
// points the quad's values are not one plane and the result is an approximation.
// The GLSL reference page (interpolateAtOffset) makes "the range and granularity of offsets
// supported by this function" implementation-dependent (Vulkan: minInterpolationOffset,
// maxInterpolationOffset, subPixelInterpolationOffsetBits); offsets are used as given here.
// Flat inputs (integers, Flat-decorated) are the same at every location: returned as loaded.
Val Translator::interpolateAt(const Instruction& inst) {
  if (stage_ != Stage::Fragment) fail("InterpolateAt* outside a fragment shader");
  auto& B = b();
  const uint32_t op = inst.operand(1);
  const uint32_t interpolant = inst.operand(2);
  Ptr p = pointer(interpolant);
  Val v = loadFrom(p, p.pointee);
  const InterpolantDecorations deco = interpolantDecorations(module_, interpolant);
  if (deco.flat) return v;

  llvm::Type* f32 = B.getFloatTy();
  llvm::Type* vf = laneType(f32);
  constexpr size_t kRow = 4 * abi::kMaxSimdWidth;  // bytes between the x and y rows of a lane array
  auto lanes = [&](size_t offset) {
    return B.CreateAlignedLoad(vf, B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, uint32_t(offset)), llvm::Align(4));
  };
  auto fconst = [&](double x) { return llvm::ConstantFP::get(vf, x); };
  auto toFloat = [&](llvm::Value* x) {
    llvm::Type* want = x->getType()->isVectorTy() ? vf : f32;
    return x->getType() == want ? x : B.CreateFPCast(x, want);
  };
  // Locations in window coordinates, per lane.
  llvm::Value* fragCoord[2], *corner[2], *centroid[2] = {}, *base[2], *target[2], *delta[2];
  noteFragCoordReads(deco.noPerspective ? 0x3 : 0xB);  // x, y, and 1/w with perspective
  for (uint32_t c = 0; c < 2; ++c) {
    fragCoord[c] = lanes(offsetof(abi::FragmentBatch, fragCoord) + c * kRow);
    corner[c] = B.CreateUnaryIntrinsic(llvm::Intrinsic::floor, fragCoord[c]);
    if (deco.centroid || op == GLSLstd450InterpolateAtCentroid)
      centroid[c] = B.CreateFAdd(corner[c], lanes(offsetof(abi::FragmentBatch, centroid) + c * kRow));
    base[c] = deco.centroid ? centroid[c] : fragCoord[c];
  }
  switch (op) {
    case GLSLstd450InterpolateAtCentroid:
      target[0] = centroid[0];
      target[1] = centroid[1];
      break;
    case GLSLstd450InterpolateAtOffset: {
      // Offset: a vec2 from the pixel's centre.
      Val offset = value(inst.operand(3));
      for (uint32_t c = 0; c < 2; ++c)
        target[c] = B.CreateFAdd(B.CreateFAdd(corner[c], fconst(0.5)), splat(toFloat(offset.leaf(c))));
      break;
    }
    case GLSLstd450InterpolateAtSample: {
      // Sample k's standard location (abi::kStandardSampleLocations) for the batch's sample
      // count; the pixel centre for one sample and for a k out of range (the result is
      // undefined there). The count is uniform, k may vary by lane: a select per location.
      // With the draw's own locations (FragmentBatch::sampleLocations, VK_EXT_sample_locations)
      // those instead: read from the batch itself while the pointer is null, so that every
      // load is of valid memory, and not selected then.
      llvm::Value* k = scalarValue(inst.operand(3));
      k = B.CreateZExtOrTrunc(k, k->getType()->isVectorTy() ? laneType(B.getInt32Ty()) : B.getInt32Ty());
      llvm::Value* count = batchField(offsetof(abi::FragmentBatch, sampleCount), B.getInt32Ty());
      llvm::Value* custom = batchField(offsetof(abi::FragmentBatch, sampleLocations), B.getPtrTy());
      llvm::Value* hasCustom = B.CreateIsNotNull(custom);
      llvm::Value* customBase = B.CreateSelect(hasCustom, custom, wgState_);
      static_assert(sizeof(abi::FragmentBatch) >= 2 * abi::kMaxSamples * sizeof(float));
      for (uint32_t c = 0; c < 2; ++c) {
        llvm::Value* at = llvm::ConstantFP::get(f32, 0.5);
        for (uint32_t n = 2; n <= abi::kMaxSamples; n *= 2) {
          llvm::Value* ofCount = llvm::ConstantFP::get(f32, 0.5);
          for (uint32_t s = 0; s < n; ++s)
            ofCount = select(B.CreateICmpEQ(k, constInt(k->getType(), s)),
                             llvm::ConstantFP::get(f32, abi::standardSampleLocation(n, s)[c]), ofCount);
          at = select(B.CreateICmpEQ(count, B.getInt32(n)), ofCount, at);
        }
        llvm::Value* customAt = llvm::ConstantFP::get(f32, 0.5);
        for (uint32_t s = 0; s < abi::kMaxSamples; ++s) {
          llvm::Value* v = B.CreateLoad(f32, B.CreateConstGEP1_32(f32, customBase, 2 * s + c));
          customAt = select(B.CreateICmpEQ(k, constInt(k->getType(), s)), v, customAt);
        }
        at = select(hasCustom, customAt, at);
        target[c] = B.CreateFAdd(corner[c], splat(at));
      }
      break;
    }
    default:
      fail("unsupported interpolation instruction " + std::to_string(op));
  }
  for (uint32_t c = 0; c < 2; ++c) delta[c] = B.CreateFSub(target[c], base[c]);
  auto along = [&](llvm::Value* const d[2], llvm::Value* gx, llvm::Value* gy) {
    return B.CreateFAdd(B.CreateFMul(d[0], gx), B.CreateFMul(d[1], gy));
  };

  // grad x from the quad, x given at the lanes' base locations.
  llvm::Value* det = nullptr, *solvable = nullptr, *step[2][2] = {};
  if (deco.centroid) {
    // step[a][c]: coordinate c's difference between the lanes the fine derivative in
    // direction a (0: x, 1: y) takes.
    for (uint32_t a = 0; a < 2; ++a)
      for (uint32_t c = 0; c < 2; ++c) step[a][c] = quadDerivative(base[c], a == 1, false);
    det = B.CreateFSub(B.CreateFMul(step[0][0], step[1][1]), B.CreateFMul(step[0][1], step[1][0]));
    // Centroids inside their pixels leave |det| near 1 unless they happen to line up; then the
    // plain differences are the better guess.
    solvable = B.CreateFCmpOGE(B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, det), fconst(1.0 / 16));
  }
  // An interpolant indexed differently by the lanes of a quad (an input array with a varying
  // index): the fine differences must take this lane's element at the neighbouring pixels,
  // not the neighbours' own elements. neighbour[a][i][l] = leaf i of lane l's element as lane
  // l ^ (1 << a) holds it (a = 0: x partner, 1: y partner).
  const bool varyingElement = p.offset && p.offset->getType()->isVectorTy();
  std::vector<int> partner[2];
  std::vector<llvm::Value*> neighbour[2];
  llvm::Value* upperSide[2] = {};  // lanes on the +x (+y) side of their pair
  if (varyingElement) {
    for (uint32_t a = 0; a < 2; ++a) {
      std::vector<llvm::Constant*> side;
      for (uint32_t l = 0; l < width(); ++l) {
        partner[a].push_back(int(l ^ (1u << a)));
        side.push_back(B.getInt1((l >> a & 1) != 0));
      }
      upperSide[a] = llvm::ConstantVector::get(side);
      // Lane l loads at its partner's offset (its own copy of the partner's element); the
      // partner then picks that up with the same shuffle.
      Ptr swapped = p;
      swapped.offset = B.CreateShuffleVector(p.offset, partner[a]);
      Val other = loadFrom(swapped, p.pointee);
      for (llvm::Value* leaf : other.leaves)
        neighbour[a].push_back(leaf->getType()->isVectorTy() ? B.CreateShuffleVector(leaf, partner[a]) : leaf);
    }
  }
  // Fine differences of x whose values at the partners are n[0], n[1] (null: x's own lanes).
  auto fine = [&](llvm::Value* x, llvm::Value* n, uint32_t a) {
    if (!n) return quadDerivative(x, a == 1, false);
    return B.CreateSelect(upperSide[a], B.CreateFSub(x, n), B.CreateFSub(n, x));
  };
  llvm::Value* const* partnerValues = nullptr;  // set per leaf below
  auto gradient = [&](llvm::Value* x, llvm::Value** gx, llvm::Value** gy) {
    llvm::Value* dx = fine(x, partnerValues ? partnerValues[0] : nullptr, 0);
    llvm::Value* dy = fine(x, partnerValues ? partnerValues[1] : nullptr, 1);
    *gx = dx;
    *gy = dy;
    if (!deco.centroid) return;
    // step[0] . g = dx, step[1] . g = dy
    llvm::Value* sx = B.CreateFDiv(B.CreateFSub(B.CreateFMul(dx, step[1][1]), B.CreateFMul(step[0][1], dy)), det);
    llvm::Value* sy = B.CreateFDiv(B.CreateFSub(B.CreateFMul(step[0][0], dy), B.CreateFMul(step[1][0], dx)), det);
    *gx = B.CreateSelect(solvable, sx, dx);
    *gy = B.CreateSelect(solvable, sy, dy);
  };

  // Perspective: q = 1/w is a plane; FragCoord.w holds it at FragCoord.xy.
  llvm::Value* qBase = nullptr, *qTarget = nullptr;
  if (!deco.noPerspective) {
    llvm::Value* q = lanes(offsetof(abi::FragmentBatch, fragCoord) + 3 * kRow);
    llvm::Value* qx = quadDerivative(q, false, false), *qy = quadDerivative(q, true, false);
    llvm::Value* fromCoord[2];
    for (uint32_t c = 0; c < 2; ++c) fromCoord[c] = B.CreateFSub(target[c], fragCoord[c]);
    qTarget = B.CreateFAdd(q, along(fromCoord, qx, qy));
    qBase = q;
    if (deco.centroid) {
      for (uint32_t c = 0; c < 2; ++c) fromCoord[c] = B.CreateFSub(base[c], fragCoord[c]);
      qBase = B.CreateFAdd(q, along(fromCoord, qx, qy));
    }
  }

  Val out;
  for (size_t i = 0; i < v.leaves.size(); ++i) {
    llvm::Value* leaf = v.leaves[i];
    // A batch-uniform value is the same at every location.
    if (!leaf->getType()->isVectorTy() || !leaf->getType()->getScalarType()->isFloatingPointTy()) {
      out.leaves.push_back(leaf);
      continue;
    }
    llvm::Value* x = toFloat(leaf);
    llvm::Value* nx[2] = {}, *nu[2] = {};
    if (varyingElement && i < neighbour[0].size() && i < neighbour[1].size()) {
      for (uint32_t a = 0; a < 2; ++a) {
        nx[a] = toFloat(neighbour[a][i]);
        if (qBase) nu[a] = B.CreateFMul(nx[a], B.CreateShuffleVector(qBase, partner[a]));
      }
    }
    llvm::Value* gx, *gy;
    partnerValues = nx[0] ? nx : nullptr;
    gradient(x, &gx, &gy);
    llvm::Value* linear = B.CreateFAdd(x, along(delta, gx, gy));
    llvm::Value* r = linear;
    if (!deco.noPerspective) {
      llvm::Value* u = B.CreateFMul(x, qBase);
      partnerValues = nu[0] ? nu : nullptr;
      gradient(u, &gx, &gy);
      llvm::Value* perspective = B.CreateFDiv(B.CreateFAdd(u, along(delta, gx, gy)), qTarget);
      // No 1/w to divide by (a batch without FragCoord.w): the plane's expansion.
      r = B.CreateSelect(B.CreateFCmpONE(qTarget, fconst(0.0)), perspective, linear);
    }
    out.leaves.push_back(r->getType() == leaf->getType() ? r : B.CreateFPCast(r, leaf->getType()));
  }
  return out;
}

void Translator::collectInterface() {
  const TypeLayout& layout = naturalLayout_;
  for (const GlobalVariable& g : module_.globals()) {
    if (g.storage != spv::StorageClass::Input && g.storage != spv::StorageClass::Output) continue;
    const Decorations& d = module_.decorations(g.id);
    bool listed = false;
    for (uint32_t id : entry_->interface) listed |= id == g.id;
    if (!listed) continue;
    const Type* pt = module_.type(g.type);
    if (!pt) continue;
    bool input = g.storage == spv::StorageClass::Input;
    // "Sample Shading": SampleId, SamplePosition or a Sample-decorated input make the shader
    // run per sample, as if minSampleShading were 1.0.
    if (input && stage_ == Stage::Fragment &&
        ((d.builtIn && (spv::BuiltIn(*d.builtIn) == spv::BuiltIn::SampleId ||
                        spv::BuiltIn(*d.builtIn) == spv::BuiltIn::SamplePosition)) ||
         d.sample || hasSampleMember(module_, pt->element)))
      facts_->perSampleShading = true;
    if (input && d.builtIn && stage_ == Stage::Fragment &&
        (spv::BuiltIn(*d.builtIn) == spv::BuiltIn::ClipDistance || spv::BuiltIn(*d.builtIn) == spv::BuiltIn::CullDistance)) {
      // The sizes the draw loop interpolates (abi::kFragmentDistanceWords).
      const Type* array = module_.type(pt->element);
      const uint32_t size = array && array->kind == TypeKind::Array ? array->count : 1;
      if (size > abi::kMaxClipDistances) fail("a ClipDistance or CullDistance array larger than maxClipDistances");
      (spv::BuiltIn(*d.builtIn) == spv::BuiltIn::ClipDistance ? facts_->clipDistances : facts_->cullDistances) = size;
    }
    if (input && d.builtIn) continue;  // read through builtInValue
    if (input && stage_ == Stage::Geometry) {  // arrays of one element per input vertex
      collectGeometryInput(g, d, pt->element);
      continue;
    }
    if ((stage_ == Stage::TessControl || stage_ == Stage::TessEval) && (input || stage_ == Stage::TessControl)) {
      collectTessellationVariable(g, d, input);  // per control point or per patch
      continue;
    }
    std::vector<InterfaceLeaf>& leaves = input ? inputLeaves_ : outputLeaves_;
    InterfaceWalker walker{*this, module_, layout, leaves};
    uint32_t location = d.location.value_or(0);
    if (!input && stage_ == Stage::Fragment && d.index.value_or(0) != 0) {
      // "Fragment Output Interface": Index 1 is the second input of the blender of the
      // attachment the Location names; only attachment 0 has one (maxFragmentDualSrcAttachments).
      if (*d.index != 1 || location != 0) fail("a fragment output with Index 1 must have Location 0");
      location = abi::kSecondColorLocation;
    }
    walker.value(pt->element, privateOffsets_[g.id], location, d.component.value_or(0), d.flat, d.noPerspective,
                 d.centroid, d.builtIn ? int32_t(*d.builtIn) : -1);
  }
  for (const InterfaceLeaf& l : inputLeaves_) {
    if (l.builtIn >= 0) {
      if (stage_ == Stage::Geometry || stage_ == Stage::TessControl || stage_ == Stage::TessEval)
        continue;  // gl_in[]'s members: loadGeometryInputs, loadTessellationInputs
      fail("built-in members of input blocks are not supported in this stage");
    }
    if (l.location >= abi::kMaxInterfaceLocations || l.component >= 4) fail("input location out of range");
    if (l.patch) continue;  // per-patch inputs of an evaluation stage come with the patch
    facts_->inputComponents[l.location] |= uint8_t(1u << l.component);
    facts_->inputInterpolation[l.location] =
        l.flat ? Interpolation::Flat : l.noPerspective ? Interpolation::NoPerspective : Interpolation::Smooth;
    if (l.centroid && !l.flat) facts_->centroidInputs |= 1u << l.location;
  }
  // Only distances a function names count (glslang declares both in every gl_PerVertex).
  const DistanceOutputUse distances = distanceOutputUse(module_, *entry_);
  for (const InterfaceLeaf& l : outputLeaves_) {
    switch (l.builtIn) {
      case -1:
        if (l.location >= abi::kMaxInterfaceLocations || l.component >= 4) fail("output location out of range");
        facts_->outputComponents[l.location] |= uint8_t(1u << l.component);
        break;
      case int32_t(spv::BuiltIn::PointSize): facts_->writesPointSize = true; break;
      case int32_t(spv::BuiltIn::ClipDistance):
        if (distances.clip) facts_->clipDistances = std::max(facts_->clipDistances, l.builtInElement + 1);
        break;
      case int32_t(spv::BuiltIn::CullDistance):
        if (distances.cull) facts_->cullDistances = std::max(facts_->cullDistances, l.builtInElement + 1);
        break;
      case int32_t(spv::BuiltIn::FragDepth): facts_->writesFragDepth = true; break;
      case int32_t(spv::BuiltIn::SampleMask): facts_->writesSampleMask = true; break;
      case int32_t(spv::BuiltIn::FragStencilRefEXT): facts_->writesStencilRef = true; break;
      // shaderOutputLayer / shaderOutputViewportIndex: a vertex or tessellation evaluation
      // stage's (a geometry stage records its own, translate_geometry.cpp).
      case int32_t(spv::BuiltIn::Layer):
        if (stage_ == Stage::Vertex || stage_ == Stage::TessEval) facts_->writesLayer = true;
        break;
      case int32_t(spv::BuiltIn::ViewportIndex):
        if (stage_ == Stage::Vertex || stage_ == Stage::TessEval) facts_->writesViewportIndex = true;
        break;
      default: break;
    }
  }
  if (stage_ == Stage::Geometry) finishGeometryInterface();
}

// An input variable of a geometry stage: an array whose outer index is the input vertex
// ("Geometry Shader Input Variables"); every element has the layout of one vertex's value.
void Translator::collectGeometryInput(const GlobalVariable& g, const Decorations& d, uint32_t arrayType) {
  const Type* at = module_.type(arrayType);
  if (!at || at->kind != TypeKind::Array) fail("a geometry shader input that is not an array per input vertex");
  if (at->count > abi::kMaxGeometryInputVertices) fail("a geometry shader input array larger than 6 vertices");
  const uint32_t stride = naturalLayout_.elementStep(arrayType, {}).stride;
  for (uint32_t v = 0; v < at->count; ++v) {
    const size_t first = inputLeaves_.size();
    InterfaceWalker walker{*this, module_, naturalLayout_, inputLeaves_};
    walker.value(at->element, privateOffsets_[g.id] + v * stride, d.location.value_or(0), d.component.value_or(0), d.flat,
                 d.noPerspective, d.centroid, -1);
    for (size_t i = first; i < inputLeaves_.size(); ++i) inputLeaves_[i].vertex = v;
  }
}

// An input variable of a tessellation stage, or an output of a control stage ("Tessellation
// Control Shaders", "Tessellation Evaluation Shaders"): per patch (decorated Patch, or the
// TessLevelOuter/Inner built-ins) one value, otherwise an array with one element per control
// point. Inputs get a per-lane copy of every element (in the private block); a control
// stage's outputs live in patch memory (sharedOffsets_), their leaves named for element 0
// with the stride to the next (the epilogue copies each invocation's own element).
void Translator::collectTessellationVariable(const GlobalVariable& g, const Decorations& d, bool input) {
  const Type* pt = module_.type(g.type);
  const uint32_t type = pt->element;
  const uint32_t base = input ? privateOffsets_[g.id] : sharedOffsets_[g.id];
  std::vector<InterfaceLeaf>& leaves = input ? inputLeaves_ : outputLeaves_;
  InterfaceWalker walker{*this, module_, naturalLayout_, leaves};
  const size_t first = leaves.size();
  // Per patch: decorated Patch (glslang puts it on a patch block's members instead), a
  // built-in (the levels), or simply not an array (per-vertex variables must be arrays).
  const Type* outerType = module_.type(type);
  bool patch = d.patch || d.builtIn || !outerType || outerType->kind != TypeKind::Array;
  for (const Type* t = outerType; !patch && t;) {
    if (t->kind == TypeKind::Array) {
      const uint32_t element = t->element;
      t = module_.type(element);
      if (t && t->kind == TypeKind::Struct)
        for (uint32_t i = 0; i < t->members.size(); ++i) patch |= module_.memberDecorations(element, i).patch;
      if (t && t->kind != TypeKind::Array) break;
      continue;
    }
    break;
  }
  if (patch) {
    walker.value(type, base, d.location.value_or(0), d.component.value_or(0), d.flat, d.noPerspective, d.centroid,
                 d.builtIn ? int32_t(*d.builtIn) : -1);
    for (size_t i = first; i < leaves.size(); ++i) leaves[i].patch = true;
    return;
  }
  const Type* at = module_.type(type);
  if (!at || at->kind != TypeKind::Array) fail("a per-vertex tessellation variable that is not an array per control point");
  if (at->count > abi::kMaxPatchVertices) fail("a tessellation array larger than 32 control points");
  const uint32_t stride = naturalLayout_.elementStep(type, {}).stride;
  for (uint32_t v = 0; v < (input ? at->count : 1); ++v) {
    const size_t from = leaves.size();
    walker.value(at->element, base + v * stride, d.location.value_or(0), d.component.value_or(0), d.flat,
                 d.noPerspective, d.centroid, -1);
    for (size_t i = from; i < leaves.size(); ++i) {
      leaves[i].vertex = v;
      if (!input) leaves[i].vertexStride = stride;
    }
  }
}

// A batch word vector (<W x i32>) as a leaf of type `type`, and back.
llvm::Value* wordsToLeaf(Translator& t, llvm::Value* words, uint32_t type, llvm::Value* highWords) {
  auto& B = t.b();
  llvm::Type* lt = t.laneType(t.scalarType(type));
  const Type* st = t.spirv().type(type);
  if (st->width == 64) {
    llvm::Type* v64 = t.laneType(B.getInt64Ty());
    llvm::Value* bits = B.CreateZExt(words, v64);
    if (highWords) bits = B.CreateOr(bits, B.CreateShl(B.CreateZExt(highWords, v64), t.splat(B.getInt64(32))));
    return B.CreateBitCast(bits, lt);
  }
  if (st->kind == TypeKind::Float) {
    llvm::Value* f = B.CreateBitCast(words, t.laneType(B.getFloatTy()));
    return st->width == 32 ? f : B.CreateFPTrunc(f, lt);
  }
  if (st->kind == TypeKind::Bool) return B.CreateICmpNE(words, llvm::Constant::getNullValue(words->getType()));
  return B.CreateTrunc(words, lt);
}

llvm::Value* leafToWords(Translator& t, llvm::Value* v, uint32_t type, uint32_t half) {
  auto& B = t.b();
  v = t.splat(v);
  llvm::Type* wt = t.laneType(B.getInt32Ty());
  const Type* st = t.spirv().type(type);
  if (st->width == 64) {
    llvm::Value* bits = B.CreateBitCast(v, t.laneType(B.getInt64Ty()));
    if (half) bits = B.CreateLShr(bits, t.splat(B.getInt64(32)));
    return B.CreateTrunc(bits, wt);
  }
  if (st->kind == TypeKind::Float) {
    if (st->width != 32) v = B.CreateFPExt(v, t.laneType(B.getFloatTy()));
    return B.CreateBitCast(v, wt);
  }
  return st->isSigned ? B.CreateSExt(v, wt) : B.CreateZExt(v, wt);
}

void Translator::setupGraphicsEnvironment() {
  auto& B = b();
  llvm::Function* fn = B.GetInsertBlock()->getParent();
  wgState_ = fn->getArg(0);  // the batch: VertexBatch, GeometryBatch, TessControlBatch or FragmentBatch
  const bool control = stage_ == Stage::TessControl;
  batch_ = control ? static_cast<llvm::Value*>(fn->getArg(1)) : B.getInt32(0);
  llvm::Type* ptrTy = B.getPtrTy();
  // Evaluation kernels take a VertexBatch (shader_abi.h).
  const bool vertex = stage_ == Stage::Vertex || stage_ == Stage::TessEval, geometry = stage_ == Stage::Geometry;
  static_assert(offsetof(abi::TessControlBatch, resources) == 0 && offsetof(abi::VertexBatch, resources) == 0);
  resources_ = batchField(vertex     ? offsetof(abi::VertexBatch, resources)
                          : geometry ? offsetof(abi::GeometryBatch, resources)
                                     : offsetof(abi::FragmentBatch, resources),
                          ptrTy);
  if (privateBytes_) {
    auto* storage = B.CreateAlloca(llvm::ArrayType::get(B.getInt8Ty(), uint64_t(privateBytes_) * width()));
    storage->setAlignment(llvm::Align(64));
    privateBase_ = storage;
  } else {
    privateBase_ = llvm::ConstantPointerNull::get(B.getPtrTy());
  }
  llvm::Type* vi = laneType(B.getInt32Ty());
  if (control) {
    // Lane i runs InvocationId batch * W + i of the patch's OutputVertices.
    llvm::Value* count = batchField(offsetof(abi::TessControlBatch, outputVertices), B.getInt32Ty());
    mask_ = B.CreateICmpULT(B.CreateAdd(splat(B.CreateMul(batch_, B.getInt32(width()))), laneIndex()), splat(count));
    tessControlActive_ = mask_;
  } else if (vertex || geometry) {
    llvm::Value* count =
        batchField(vertex ? offsetof(abi::VertexBatch, count) : offsetof(abi::GeometryBatch, count), B.getInt32Ty());
    mask_ = B.CreateICmpULT(laneIndex(), splat(count));
  } else {
    // Every lane of a quad with a covered pixel runs (the others as helpers, for derivatives).
    llvm::Value* coverage = batchField(offsetof(abi::FragmentBatch, coverage), B.getInt32Ty());
    B.CreateStore(coverage, B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::FragmentBatch, alive)));
    std::vector<llvm::Constant*> quadBits;
    for (uint32_t l = 0; l < width(); ++l) quadBits.push_back(B.getInt32(0xFu << (l & ~3u)));
    llvm::Value* inQuad = B.CreateAnd(splat(coverage), llvm::ConstantVector::get(quadBits));
    mask_ = B.CreateICmpNE(inQuad, llvm::Constant::getNullValue(vi));
  }
  // Inputs: batch words -> per-lane slots.
  if (geometry) {
    loadGeometryInputs();
  } else if (control || stage_ == Stage::TessEval) {
    loadTessellationInputs();
  } else if (vertex) {
    loadVertexInputs(batchField(offsetof(abi::VertexBatch, inputs), ptrTy));
  } else if (!inputLeaves_.empty()) {
    llvm::Value* inputs = batchField(offsetof(abi::FragmentBatch, inputs), ptrTy);
    storeInputLeaves([&](const InterfaceLeaf& l) {
      llvm::Value* src = B.CreateConstGEP1_32(B.getInt32Ty(), inputs, (l.location * 4 + l.component) * width());
      return B.CreateAlignedLoad(vi, src, llvm::Align(4));
    });
  }
  // PointSize reads as 1 unless the shader writes it (a control stage's outputs are not in
  // the private block: the caller's TessPatch starts with point sizes of 1).
  for (const InterfaceLeaf& l : outputLeaves_)
    if (l.builtIn == int32_t(spv::BuiltIn::PointSize) && !control)
      B.CreateAlignedStore(llvm::ConstantFP::get(laneType(B.getFloatTy()), 1.0),
                           B.CreateConstGEP1_32(B.getInt8Ty(), privateBase_, l.offset * width()), llvm::Align(4));
  initializePrivateVariables();
}

llvm::Value* Translator::outputLeafWords(const InterfaceLeaf& l) {
  auto& B = b();
  llvm::Type* mt = scalarType(l.type);
  if (mt->isIntegerTy(1)) mt = B.getInt8Ty();
  llvm::Value* v = B.CreateAlignedLoad(laneType(mt), B.CreateConstGEP1_32(B.getInt8Ty(), privateBase_, l.offset * width()),
                                       llvm::Align(1));
  if (scalarType(l.type)->isIntegerTy(1)) v = B.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
  return leafToWords(*this, v, l.type, l.half);
}

void Translator::storeInputLeaves(llvm::function_ref<llvm::Value*(const InterfaceLeaf&)> wordsOf, llvm::Value* vertexCount) {
  auto& B = b();
  // Stores leaf i (and, for a 64-bit leaf, its high word, the next leaf); returns the last
  // leaf stored.
  auto storeLeaf = [&](size_t i) {
    const InterfaceLeaf& l = inputLeaves_[i];
    llvm::Value* words = wordsOf(l);
    llvm::Value* high = nullptr;
    if (module_.type(l.type)->width == 64) {
      if (l.half != 0 || i + 1 >= inputLeaves_.size() || inputLeaves_[i + 1].half != 1)
        fail("a 64-bit input without its two words");  // InterfaceWalker::scalar makes them in pairs
      high = wordsOf(inputLeaves_[++i]);
    }
    llvm::Value* v = wordsToLeaf(*this, words, l.type, high);
    if (v->getType()->getScalarType()->isIntegerTy(1)) v = B.CreateZExt(v, laneType(B.getInt8Ty()));
    B.CreateAlignedStore(v, B.CreateConstGEP1_32(B.getInt8Ty(), privateBase_, l.offset * width()), llvm::Align(1));
    return i;
  };
  // The leaves of vertex v (every leaf without a vertexCount; with one, the per-patch leaves
  // for v = 0).
  auto storeVertex = [&](uint32_t v) {
    for (size_t i = 0; i < inputLeaves_.size(); ++i) {
      const InterfaceLeaf& l = inputLeaves_[i];
      const bool inVertex = !vertexCount || (l.patch ? v == 0 : l.vertex == v);
      if (inVertex) i = storeLeaf(i);
      else if (module_.type(l.type)->width == 64 && i + 1 < inputLeaves_.size() && inputLeaves_[i + 1].half == 1) ++i;
    }
  };
  storeVertex(0);
  if (!vertexCount) return;
  // Vertex v >= 1 only where the patch has it: a chain of blocks that leaves at the first
  // vertex past the count (every patch has vertex 0).
  uint32_t lastVertex = 0;
  for (const InterfaceLeaf& l : inputLeaves_)
    if (!l.patch) lastVertex = std::max(lastVertex, l.vertex);
  if (lastVertex == 0) return;
  llvm::Function* fn = B.GetInsertBlock()->getParent();
  llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "inputs.done");
  for (uint32_t v = 1; v <= lastVertex; ++v) {
    llvm::BasicBlock* body = llvm::BasicBlock::Create(context_, "inputs.vertex", fn);
    B.CreateCondBr(B.CreateICmpULT(B.getInt32(v), vertexCount), body, done);
    B.SetInsertPoint(body);
    storeVertex(v);
  }
  B.CreateBr(done);
  done->insertInto(fn);
  B.SetInsertPoint(done);
}

void Translator::emitGraphicsEpilogue() {
  auto& B = b();
  llvm::Type* ptrTy = B.getPtrTy();
  llvm::Type* vf = laneType(B.getFloatTy());
  const bool vertex = stage_ == Stage::Vertex || stage_ == Stage::TessEval;
  auto slot = [&](const InterfaceLeaf& l) { return outputLeafWords(l); };
  // Colour locations the kernel may write itself are stored after the final alive bits
  // (emitDirectColorWrites).
  const uint32_t direct = directColorCandidates(nullptr);
  auto storeWords = [&](llvm::Value* base, uint32_t index, llvm::Value* words) {
    B.CreateAlignedStore(words, B.CreateConstGEP1_32(B.getInt32Ty(), base, index * width()), llvm::Align(4));
  };
  llvm::Value* outputs =
      batchField(vertex ? offsetof(abi::VertexBatch, outputs) : offsetof(abi::FragmentBatch, outputs), ptrTy);
  bool wrotePointSize = false;
  for (const InterfaceLeaf& l : outputLeaves_) {
    llvm::Value* words = slot(l);
    switch (l.builtIn) {
      case -1:
        if (!(l.location < abi::kMaxColorAttachments && direct >> l.location & 1))
          storeWords(outputs, l.location * 4 + l.component, words);
        break;
      case int32_t(spv::BuiltIn::Position):
        storeWords(batchField(offsetof(abi::VertexBatch, position), ptrTy), l.builtInElement, words);
        break;
      case int32_t(spv::BuiltIn::PointSize):
        storeWords(batchField(offsetof(abi::VertexBatch, pointSize), ptrTy), 0, words);
        wrotePointSize = true;
        break;
      case int32_t(spv::BuiltIn::ClipDistance):
        if (l.builtInElement < abi::kMaxClipDistances)
          storeWords(batchField(offsetof(abi::VertexBatch, clipDistance), ptrTy), l.builtInElement, words);
        break;
      case int32_t(spv::BuiltIn::CullDistance):
        if (l.builtInElement < abi::kMaxClipDistances)
          storeWords(batchField(offsetof(abi::VertexBatch, cullDistance), ptrTy), l.builtInElement, words);
        break;
      case int32_t(spv::BuiltIn::FragDepth):
        B.CreateAlignedStore(words, B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::FragmentBatch, fragDepth)),
                             llvm::Align(4));
        break;
      case int32_t(spv::BuiltIn::SampleMask):
        if (l.builtInElement == 0)
          B.CreateAlignedStore(words, B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::FragmentBatch, sampleMask)),
                               llvm::Align(4));
        break;
      case int32_t(spv::BuiltIn::FragStencilRefEXT):
        B.CreateAlignedStore(words, B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::FragmentBatch, fragStencilRef)),
                             llvm::Align(4));
        break;
      case int32_t(spv::BuiltIn::Layer):  // VertexBatch::layerViewport (shaderOutputLayer)
        if (vertex) storeWords(batchField(offsetof(abi::VertexBatch, layerViewport), ptrTy), 0, words);
        break;
      case int32_t(spv::BuiltIn::ViewportIndex):  // shaderOutputViewportIndex
        if (vertex) storeWords(batchField(offsetof(abi::VertexBatch, layerViewport), ptrTy), 1, words);
        break;
      default:
        break;  // other built-in outputs (PrimitiveShadingRate, ...) are not consumed
    }
  }
  if (vertex && !wrotePointSize)
    B.CreateAlignedStore(llvm::ConstantFP::get(vf, 1.0), batchField(offsetof(abi::VertexBatch, pointSize), ptrTy),
                         llvm::Align(4));
}

Val Translator::graphicsBuiltInValue(spv::BuiltIn builtIn, uint32_t type) {
  auto& B = b();
  llvm::Type* i32 = B.getInt32Ty();
  llvm::Type* vi = laneType(i32);
  Val v;
  if (stage_ == Stage::Geometry) return geometryBuiltInValue(builtIn);
  if (stage_ == Stage::TessControl || stage_ == Stage::TessEval) {
    v = tessellationBuiltInValue(builtIn);
    std::vector<uint32_t> types = leafTypes(type);
    for (size_t i = 0; i < v.leaves.size() && i < types.size(); ++i) {
      llvm::Type* want = scalarType(types[i]);
      llvm::Value*& l = v.leaves[i];
      if (l->getType()->getScalarType()->isIntegerTy() && want->isIntegerTy() && l->getType()->getScalarType() != want)
        l = B.CreateZExtOrTrunc(l, l->getType()->isVectorTy() ? laneType(want) : want);
    }
    return v;
  }
  if (stage_ == Stage::Vertex) {
    switch (builtIn) {
      case spv::BuiltIn::VertexIndex:
        v.leaves = {B.CreateAlignedLoad(vi, B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::VertexBatch, vertexIndex)),
                                        llvm::Align(4))};
        break;
      case spv::BuiltIn::InstanceIndex: v.leaves = {batchField(offsetof(abi::VertexBatch, instanceIndex), i32)}; break;
      case spv::BuiltIn::BaseVertex: v.leaves = {batchField(offsetof(abi::VertexBatch, baseVertex), i32)}; break;
      case spv::BuiltIn::BaseInstance: v.leaves = {batchField(offsetof(abi::VertexBatch, baseInstance), i32)}; break;
      case spv::BuiltIn::DrawIndex: v.leaves = {batchField(offsetof(abi::VertexBatch, drawIndex), i32)}; break;
      case spv::BuiltIn::ViewIndex: v.leaves = {viewIndex()}; break;
      case spv::BuiltIn::DeviceIndex: v.leaves = {B.getInt32(0)}; break;
      default: fail("unsupported built-in " + std::to_string(uint32_t(builtIn)) + " in a vertex shader");
    }
    return v;
  }
  switch (builtIn) {
    case spv::BuiltIn::FragCoord:
      noteFragCoordReads(0xF);
      for (uint32_t c = 0; c < 4; ++c)
        v.leaves.push_back(B.CreateAlignedLoad(
            laneType(B.getFloatTy()),
            B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, uint32_t(offsetof(abi::FragmentBatch, fragCoord) + c * 4 * abi::kMaxSimdWidth)),
            llvm::Align(4)));
      break;
    case spv::BuiltIn::FrontFacing:
      v.leaves = {B.CreateICmpNE(batchField(offsetof(abi::FragmentBatch, frontFacing), i32), B.getInt32(0))};
      break;
    case spv::BuiltIn::PrimitiveId: v.leaves = {batchField(offsetof(abi::FragmentBatch, primitiveId), i32)}; break;
    case spv::BuiltIn::HelperInvocation: v.leaves = {B.CreateNot(aliveMask())}; break;
    // Quad operations work in fragment shaders (quadOperationsInAllStages is VK_FALSE: they are
    // promised in fragment and compute); a batch, whose quads are lanes 4q .. 4q+3, is the
    // subgroup, and derivatives in dynamic control flow are computed by hand from these.
    case spv::BuiltIn::SubgroupSize:
    case spv::BuiltIn::SubgroupLocalInvocationId:
    case spv::BuiltIn::SubgroupEqMask:
    case spv::BuiltIn::SubgroupGeMask:
    case spv::BuiltIn::SubgroupGtMask:
    case spv::BuiltIn::SubgroupLeMask:
    case spv::BuiltIn::SubgroupLtMask:
      v = subgroupBuiltInValue(builtIn);
      break;
    case spv::BuiltIn::PointCoord:
      for (uint32_t c = 0; c < 2; ++c)
        v.leaves.push_back(B.CreateAlignedLoad(
            laneType(B.getFloatTy()),
            B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, uint32_t(offsetof(abi::FragmentBatch, pointCoord) + c * 4 * abi::kMaxSimdWidth)),
            llvm::Align(4)));
      break;
    case spv::BuiltIn::SampleId: v.leaves = {batchField(offsetof(abi::FragmentBatch, sampleId), i32)}; break;
    case spv::BuiltIn::SamplePosition:
      for (uint32_t c = 0; c < 2; ++c)
        v.leaves.push_back(batchField(offsetof(abi::FragmentBatch, samplePosition) + 4 * c, B.getFloatTy()));
      break;
    case spv::BuiltIn::ViewIndex: v.leaves = {viewIndex()}; break;
    case spv::BuiltIn::ClipDistance:
    case spv::BuiltIn::CullDistance: {
      // Interpolated by the draw loop after the inputs (abi::FragmentBatch::inputs).
      llvm::Value* inputs = batchField(offsetof(abi::FragmentBatch, inputs), B.getPtrTy());
      const uint32_t first = abi::kFragmentDistanceWords + (builtIn == spv::BuiltIn::CullDistance ? abi::kMaxClipDistances : 0);
      const size_t count = std::min<size_t>(leafTypes(type).size(), abi::kMaxClipDistances);
      for (uint32_t d = 0; d < count; ++d)
        v.leaves.push_back(B.CreateAlignedLoad(laneType(B.getFloatTy()),
                                               B.CreateConstGEP1_32(B.getFloatTy(), inputs, (first + d) * width()), llvm::Align(4)));
      break;
    }
    case spv::BuiltIn::Layer:  // what the geometry stage wrote, through the resources like ViewIndex
      v.leaves = {B.CreateLoad(i32, B.CreateConstGEP1_32(B.getInt8Ty(), resources_, uint32_t(offsetof(abi::BoundResources, layer))))};
      break;
    case spv::BuiltIn::ViewportIndex:  // the primitive's ("Controlling the Viewport"), set by the draw loop
      v.leaves = {batchField(offsetof(abi::FragmentBatch, viewportIndex), i32)};
      break;
    case spv::BuiltIn::DeviceIndex:
      v.leaves = {B.getInt32(0)};
      break;
    case spv::BuiltIn::SampleMask: {
      // SampleMaskIn: the samples of the fragment the primitive covers (the draw loop fills
      // sampleMaskIn, before the sample mask test, for shaders that read it); helpers have none.
      if (facts_) facts_->readsSampleMaskIn = true;
      llvm::Value* in = B.CreateAlignedLoad(vi, B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::FragmentBatch, sampleMaskIn)),
                                            llvm::Align(4));
      v.leaves = {B.CreateSelect(aliveMask(), in, llvm::Constant::getNullValue(vi))};
      break;
    }
    default:
      fail("unsupported built-in " + std::to_string(uint32_t(builtIn)) + " in a fragment shader");
  }
  std::vector<uint32_t> types = leafTypes(type);
  for (size_t i = 0; i < v.leaves.size() && i < types.size(); ++i) {
    llvm::Type* want = scalarType(types[i]);
    llvm::Value*& l = v.leaves[i];
    if (l->getType()->getScalarType()->isIntegerTy() && want->isIntegerTy() && l->getType()->getScalarType() != want)
      l = B.CreateZExtOrTrunc(l, l->getType()->isVectorTy() ? laneType(want) : want);
  }
  return v;
}

// Derivatives, demotion and helper queries (fragment shaders only; validation rejects them
// elsewhere).
bool Translator::translateFragmentOp(const Instruction& inst) {
  using spv::Op;
  auto& B = b();
  switch (inst.op) {
    case Op::OpDPdx:
    case Op::OpDPdy:
    case Op::OpFwidth:
    case Op::OpDPdxFine:
    case Op::OpDPdyFine:
    case Op::OpFwidthFine:
    case Op::OpDPdxCoarse:
    case Op::OpDPdyCoarse:
    case Op::OpFwidthCoarse: {
      if (stage_ != Stage::Fragment) fail("derivatives outside a fragment shader");
      const bool coarse = inst.op == Op::OpDPdxCoarse || inst.op == Op::OpDPdyCoarse || inst.op == Op::OpFwidthCoarse;
      const bool fwidth = inst.op == Op::OpFwidth || inst.op == Op::OpFwidthFine || inst.op == Op::OpFwidthCoarse;
      const bool y = inst.op == Op::OpDPdy || inst.op == Op::OpDPdyFine || inst.op == Op::OpDPdyCoarse;
      Val in = value(inst.operand(0)), out;
      for (llvm::Value* leaf : in.leaves) {
        if (!fwidth) {
          out.leaves.push_back(quadDerivative(leaf, y, coarse));
          continue;
        }
        llvm::Value* dx = quadDerivative(leaf, false, coarse);
        llvm::Value* dy = quadDerivative(leaf, true, coarse);
        llvm::Function* fabs = llvm::Intrinsic::getDeclaration(&out_, llvm::Intrinsic::fabs, {dx->getType()});
        out.leaves.push_back(B.CreateFAdd(B.CreateCall(fabs, {dx}), B.CreateCall(fabs, {dy})));
      }
      define(inst.result, out);
      return true;
    }
    case Op::OpDemoteToHelperInvocation: {
      if (stage_ != Stage::Fragment) fail("OpDemoteToHelperInvocation outside a fragment shader");
      facts_->canDiscard = true;
      // alive &= ~(bits of the active lanes)
      llvm::Value* activeBits = B.CreateZExt(B.CreateBitCast(mask_, B.getIntNTy(width())), B.getInt32Ty());
      llvm::Value* at = B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::FragmentBatch, alive));
      B.CreateStore(B.CreateAnd(B.CreateLoad(B.getInt32Ty(), at), B.CreateNot(activeBits)), at);
      return true;
    }
    case Op::OpIsHelperInvocationEXT:
      if (stage_ != Stage::Fragment) fail("OpIsHelperInvocationEXT outside a fragment shader");
      define(inst.result, Val{{B.CreateNot(aliveMask())}});
      return true;
    default:
      return false;
  }
}

bool Translator::translateGraphics(const EntryPoint& entry, const std::string& kernelName, GraphicsFacts* facts,
                                   std::string* error) {
  try {
    entry_ = &entry;
    facts_ = facts;
    stage_ = entry.model == spv::ExecutionModel::Vertex                   ? Stage::Vertex
             : entry.model == spv::ExecutionModel::Fragment               ? Stage::Fragment
             : entry.model == spv::ExecutionModel::TessellationControl    ? Stage::TessControl
             : entry.model == spv::ExecutionModel::TessellationEvaluation ? Stage::TessEval
                                                                          : Stage::Geometry;
    if (stage_ == Stage::Geometry) readGeometryModes(entry);
    if (stage_ == Stage::TessControl || stage_ == Stage::TessEval) readTessellationModes(entry);
    const Function* f = module_.function(entry.function);
    if (!f) fail("entry point function not found");
    for (const Instruction& mode : entry.executionModes) {
      if (mode.operandCount > 1 && spv::ExecutionMode(mode.operand(1)) == spv::ExecutionMode::EarlyFragmentTests)
        facts_->earlyFragmentTests = true;
      if (mode.operandCount > 1 && spv::ExecutionMode(mode.operand(1)) == spv::ExecutionMode::PostDepthCoverage)
        facts_->postDepthCoverage = true;
    }
    assignGlobalStorage();
    collectInterface();
    auto& cfg = cfgs_.emplace(f->id, buildStructuredCfg(*f)).first->second;
    uniformity_->setGeometryStage(stage_ == Stage::Geometry);
    uniformity_->analyze(*f, cfg);
    // Control kernels take the batch index too (abi::TessControlBatchFn).
    std::vector<llvm::Type*> params{b().getPtrTy()};
    if (stage_ == Stage::TessControl) params.push_back(b().getInt32Ty());
    auto* type = llvm::FunctionType::get(b().getVoidTy(), params, false);
    auto* kernel = llvm::Function::Create(type, llvm::Function::ExternalLinkage, kernelName, out_);
    functions_[f->id] = kernel;
    translateFunctionBody(*f, kernel, true);
    if (stage_ == Stage::TessControl) {
      facts_->tessellation.patchBytes = sharedBytes_;
      facts_->tessellation.usesBarrier = usesBarrier_;
    }
    return true;
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
}

}  // namespace tessera::jit
