// Inline sampling (inline_sample.h). The kernel reads the thread's entry for the instruction's
// slot (FragmentBatch::inlineSampling); when the descriptors name the entry's view and sampler,
// the entry is usable, the batch's level(s) are the entry's and every active lane's coordinates
// fit, it samples the level(s) itself with the fixed-point routine's arithmetic
// (sampler/batch_sampler_unorm8_uniform.cpp, whose steps each helper below names):
//  - the level: mipmapMode NEAREST, every lane's ρ_max² in float inside the level's range
//    (squaredRhoLanes and NearestLevelRanges); LINEAR, each quad's λ, d_hi and δ from its
//    derivatives with selectLaneLevels' double operations (vectorLog2 included) in their order;
//  - NEAREST: i = floor(s w) (exact in float: w is a power of two), wrapped, one texel, each
//    byte c as c 2^16;
//  - LINEAR: x = s w 256, floor(x) + (x - floor(x) >= 1/2) - 128 (linearCoordinatePow2: u - 1/2
//    snapped to 2^-8), i0 = x >> 8, α = x & 255, four texels, the rows c0 (256 - α) + c1 α and (256 - β) row0 + β row1 in
//    integers (the routine's vpmaddwd and exact float steps);
//  - one level: the sum over 255 x 2^16 correctly rounded (unormQuotient: a product and two
//    fused multiply-adds); two: S_hi (256 - δ8) + S_lo δ8 over 255 x 2^24 in double, rounded to
//    float (twoLevelQuotient);
//  - REPEAT is the low bits, CLAMP_TO_EDGE a clamp to [0, size - 1] (the routine's wrap for
//    powers of two: levels whose sides are not, and MIRRORED_REPEAT, take the call); BGRA swaps bytes 0 and 2; inactive lanes give 0, as the call's do; the
//    texels two blocks ahead are prefetched (the routine's prefetchAhead, four lanes).
// A missed key or level calls tessera_rt_inline_sample_refresh (with the first lane that
// missed) and then the runtime call for this batch; coordinates that do not fit go to the
// call directly.
// A cube sample (samplerCube) first selects each lane's face, face coordinates and face
// derivatives as the cube batches do (selectFaces: sampler/cube_batch.cpp's
// selectCubeFaceLanes, in double), takes its levels per lane (a quad's face derivatives
// differ), and reads face f of each level at f x layerPitch with CLAMP_TO_EDGE (the faces'
// sampler there); a LINEAR footprint across one face edge takes the neighbouring face's texels
// by "Cube Map Edge Handling" (edgeFootprint, with the weights the face gives them, as the cube
// batches' cubeEdgeSums); a batch with a direction that is not finite and non-zero, or a
// footprint over a cube corner, takes the call (the reference's lanes). A mipmapMode LINEAR
// batch whose every lane has δ8 = 0 reads level 0 alone.
#include "inline_sample.h"

#include <array>
#include <cmath>
#include <cstddef>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>

#include "tessera/shader_abi.h"
#include "translator.h"

namespace tessera::jit {
namespace {

using abi::InlineSampleState;

struct Emitter {
  Translator& t;
  llvm::IRBuilder<>& B;
  const InlineSampleOperands& ops;
  llvm::Function* fn;
  llvm::Type* i32;
  llvm::Type* f32;
  llvm::Type* ptr;
  llvm::Type* vi32;
  llvm::Type* vf32;
  llvm::Value* active;  // <W x i1>
  llvm::Value* entry = nullptr;
  // The lanes' 2D coordinates and quad derivatives (<W x float>): the operands' own, or for a
  // cube each lane's face coordinates and face derivatives (selectFaces), with its face.
  llvm::Value *cs, *ct, *dsdx, *dtdx, *dsdy, *dtdy;
  llvm::Value* face = nullptr;  // cube: <W x i32>, each lane's face (the layer it reads)
  struct Axis;  // below, with Level

  Emitter(Translator& tr, const InlineSampleOperands& o)
      : t(tr), B(tr.b()), ops(o), fn(tr.b().GetInsertBlock()->getParent()), i32(B.getInt32Ty()), f32(B.getFloatTy()),
        ptr(B.getPtrTy()), vi32(tr.laneType(B.getInt32Ty())), vf32(tr.laneType(B.getFloatTy())), active(tr.splat(tr.mask())),
        cs(o.s), ct(o.t), dsdx(o.dsdx), dtdx(o.dtdx), dsdy(o.dsdy), dtdy(o.dtdy) {}

  llvm::BasicBlock* block(const char* name) { return llvm::BasicBlock::Create(t.context(), name, fn); }

  llvm::Value* field(llvm::Type* ty, size_t offset) {
    return B.CreateLoad(ty, B.CreateConstGEP1_64(B.getInt8Ty(), entry, offset));
  }
  llvm::Value* splatI(int32_t v) { return t.splat(B.getInt32(uint32_t(v))); }
  llvm::Value* splatF(float v) { return t.splat(llvm::ConstantFP::get(f32, v)); }
  llvm::Value* bits(llvm::Value* mask) { return B.CreateBitCast(mask, B.getIntNTy(t.width())); }
  // Whether every active lane has `ok`.
  llvm::Value* allActive(llvm::Value* ok) {
    return B.CreateICmpEQ(bits(B.CreateAnd(active, B.CreateNot(ok))), llvm::ConstantInt::get(B.getIntNTy(t.width()), 0));
  }
  llvm::Value* floorF(llvm::Value* v) { return B.CreateUnaryIntrinsic(llvm::Intrinsic::floor, v); }
  llvm::Value* fabsF(llvm::Value* v) { return B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v); }
  llvm::Value* fma(llvm::Value* a, llvm::Value* b, llvm::Value* c) {
    return B.CreateIntrinsic(llvm::Intrinsic::fma, {vf32}, {a, b, c});
  }

  // The first lane of `mask` (lane 0 when it has none), then the refresh call with its
  // derivatives.
  void refresh(llvm::Value* mask) {
    llvm::Type* intW = B.getIntNTy(t.width());
    llvm::Value* first = B.CreateIntrinsic(llvm::Intrinsic::cttz, {intW}, {bits(mask), B.getFalse()});
    first = B.CreateZExtOrTrunc(first, i32);
    first = B.CreateSelect(B.CreateICmpULT(first, B.getInt32(t.width())), first, B.getInt32(0));
    llvm::FunctionCallee fnRefresh = t.runtime(
        "tessera_rt_inline_sample_refresh", llvm::FunctionType::get(B.getVoidTy(), {ptr, ptr, ptr, i32, f32, f32, f32, f32}, false));
    B.CreateCall(fnRefresh, {B.CreateIntToPtr(ops.imageDesc, ptr), B.CreateIntToPtr(ops.samplerDesc, ptr), entry,
                             B.getInt32(t.width()), B.CreateExtractElement(dsdx, first), B.CreateExtractElement(dtdx, first),
                             B.CreateExtractElement(dsdy, first), B.CreateExtractElement(dtdy, first)});
  }

  // "Wrapping Operation" of integer texel coordinates on one axis of a level whose size is a
  // power of two (the routine's wrap): REPEAT keeps the low bits (two's complement),
  // CLAMP_TO_EDGE clamps to [0, size - 1]. The mode is uniform.
  // One form for both modes: clamp(i & keep, 0, size - 1) with keep = size - 1 for REPEAT
  // (the low bits, already in range) and all ones for CLAMP_TO_EDGE (Axis::keep): three
  // operations a wrap instead of both results and a blend.
  llvm::Value* wrap(llvm::Value* i, const Axis& a) {
    llvm::Value* kept = B.CreateAnd(i, a.keep);
    return B.CreateBinaryIntrinsic(llvm::Intrinsic::smin, B.CreateBinaryIntrinsic(llvm::Intrinsic::smax, kept, splatI(0)), a.mask);
  }

  // Every lane's 32-bit texel at byte offsets `offset` (in int32) from `base`: inactive lanes'
  // coordinates are 0 (coordinates()) and wrapped like the others, so every offset lies in the
  // level, and the gather needs no mask (hosts without fast gathers, AMD's, get a masked one as
  // a test and a branch per lane, an unmasked one as plain loads). finish() zeroes inactive lanes.
  llvm::Value* texels(llvm::Value* base, llvm::Value* offset) {
    llvm::Value* addresses = B.CreateGEP(B.getInt8Ty(), base, B.CreateSExt(offset, t.laneType(B.getInt64Ty())));
    return B.CreateMaskedGather(vi32, addresses, llvm::Align(1), llvm::Constant::getAllOnesValue(t.laneType(B.getInt1Ty())),
                                llvm::Constant::getNullValue(vi32));
  }
  // One axis of a level: size - 1 and 1 / size (<W x i32>, <W x float>), size (float scalar).
  struct Axis {
    llvm::Value* mask;   // <W x i32>: size - 1
    llvm::Value* size;   // float scalar
    llvm::Value* clamp;  // <W x i1>, uniform: CLAMP_TO_EDGE (else REPEAT)
    llvm::Value* keep;   // <W x i32>: all ones for CLAMP_TO_EDGE, size - 1 for REPEAT (wrap)
  };
  llvm::Value* clampU = nullptr;  // the sampler's address modes (InlineSampleState::flags)
  llvm::Value* clampV = nullptr;
  // One level's parameters (InlineSampleState::levels[k]), uniform.
  struct Level {
    llvm::Value* base;
    llvm::Value* pitch;  // <W x i32>
    llvm::Value* pitchScalar;  // i32
    Axis u, v;
    llvm::Value* faceOffset = nullptr;  // cube: <W x i32>, face x layerPitch (null: 2D)
    llvm::Value* layerPitch = nullptr;  // cube: <W x i32>, the distance between faces
  };
  Level level(uint32_t k) {
    const size_t at = offsetof(InlineSampleState, levels) + k * sizeof(abi::InlineSampleLevel);
    Level l;
    l.base = field(ptr, at + offsetof(abi::InlineSampleLevel, base));
    l.pitchScalar = field(i32, at + offsetof(abi::InlineSampleLevel, rowPitch));
    l.pitch = t.splat(l.pitchScalar);
    l.u = {t.splat(field(i32, at + offsetof(abi::InlineSampleLevel, widthMask))), field(f32, at + offsetof(abi::InlineSampleLevel, width)),
           clampU};
    l.v = {t.splat(field(i32, at + offsetof(abi::InlineSampleLevel, heightMask))), field(f32, at + offsetof(abi::InlineSampleLevel, height)),
           clampV};
    for (Axis* a : {&l.u, &l.v}) a->keep = B.CreateSelect(a->clamp, splatI(-1), a->mask);
    if (face) {
      l.layerPitch = t.splat(field(i32, at + offsetof(abi::InlineSampleLevel, layerPitch)));
      l.faceOffset = B.CreateMul(face, l.layerPitch);
    }
    return l;
  }
  // A texel's byte offset in the level: row, column and (cube) the lane's face.
  llvm::Value* texelOffset(const Level& l, llvm::Value* rowOffset, llvm::Value* columnOffset) {
    llvm::Value* offset = B.CreateAdd(rowOffset, columnOffset);
    return l.faceOffset ? B.CreateAdd(offset, l.faceOffset) : offset;
  }

  // A level's integer coordinates of the active lanes (0 elsewhere) and whether every active
  // lane's fit the routine's limits, for power-of-two sides, exactly in float:
  // NEAREST floor(s w) (nearestCoordinatePow2: s w is exact; |floor| < 2^22), LINEAR
  // floor(x) + (x - floor(x) >= 1/2) - 128 with x = s w 256 (linearCoordinatePow2: u - 1/2
  // snapped to 2^-8, in 1/256 texels; |floor(x)| < 2^29, the routine's 2^30 with room).
  struct Coordinates {
    llvm::Value* i;  // <W x i32>
    llvm::Value* j;
    llvm::Value* fits;
  };
  Coordinates coordinates(const Level& l, bool linear) {
    Coordinates c;
    auto axis = [&](llvm::Value* s, const Axis& a, llvm::Value*& out) -> llvm::Value* {
      llvm::Value* scale = linear ? B.CreateFMul(a.size, llvm::ConstantFP::get(f32, 256.0)) : a.size;
      llvm::Value* x = B.CreateFMul(s, t.splat(scale));
      llvm::Value* f = floorF(x);
      llvm::Value* fits = B.CreateFCmpOLT(fabsF(f), splatF(linear ? 536870912.0f : 4194304.0f));
      llvm::Value* n = B.CreateFPToSI(B.CreateSelect(B.CreateAnd(active, fits), f, splatF(0.0f)), vi32);
      if (linear) {
        llvm::Value* up = B.CreateZExt(B.CreateFCmpOGE(B.CreateFSub(x, f), splatF(0.5f)), vi32);
        n = B.CreateSub(B.CreateAdd(n, up), splatI(128));
      }
      out = n;
      return fits;
    };
    llvm::Value* fitsX = axis(cs, l.u, c.i);
    llvm::Value* fitsY = axis(ct, l.v, c.j);
    c.fits = B.CreateAnd(fitsX, fitsY);
    return c;
  }

  // A level's texel byte offsets and weights: NEAREST one texel (α = β = 0), LINEAR the 2x2
  // footprint's four (i0 j0, i1 j0, i0 j1, i1 j1) and α, β in 1/256.
  struct Footprint {
    llvm::Value* offset[4] = {};
    llvm::Value* alpha = nullptr;
    llvm::Value* beta = nullptr;
  };
  // A LINEAR footprint's first texel (i0, j0) and weights α, β from the fixed-point coordinates.
  void splitFixed(const Coordinates& c, Footprint& f, llvm::Value*& i0, llvm::Value*& j0) {
    i0 = B.CreateAShr(c.i, splatI(8));
    j0 = B.CreateAShr(c.j, splatI(8));
    f.alpha = B.CreateAnd(c.i, splatI(255));
    f.beta = B.CreateAnd(c.j, splatI(255));
  }
  // The face's own texels, wrapped (the routine's wrapFixed), with the texels two blocks ahead
  // prefetched.
  Footprint wrappedFootprint(const Level& l, const Coordinates& c, bool linear) {
    Footprint f;
    if (!linear) {
      llvm::Value* i = wrap(c.i, l.u);
      llvm::Value* j = wrap(c.j, l.v);
      f.offset[0] = texelOffset(l, B.CreateMul(j, l.pitch), B.CreateShl(i, splatI(2)));
      prefetchAhead(l, i, j);
      return f;
    }
    llvm::Value *i0, *j0;
    splitFixed(c, f, i0, j0);
    llvm::Value* wi0 = wrap(i0, l.u);
    llvm::Value* wj0 = wrap(j0, l.v);
    llvm::Value* wj1 = wrap(B.CreateAdd(j0, splatI(1)), l.v);
    llvm::Value* x0 = B.CreateShl(wi0, splatI(2));
    llvm::Value* x1 = B.CreateShl(wrap(B.CreateAdd(i0, splatI(1)), l.u), splatI(2));
    llvm::Value* y0 = B.CreateMul(wj0, l.pitch);
    llvm::Value* y1 = B.CreateMul(wj1, l.pitch);
    prefetchAhead(l, wi0, wj0, /*nextRow=*/true);
    // Four gathers (one 8-byte load per row where no wrap falls between the two texels, as the
    // routine's loadTexelPairs, measured 3-7% slower here and cost a fifth of the compile time).
    f.offset[0] = texelOffset(l, y0, x0), f.offset[1] = texelOffset(l, y0, x1);
    f.offset[2] = texelOffset(l, y1, x0), f.offset[3] = texelOffset(l, y1, x1);
    return f;
  }

  // "Cube Map Edge Handling" of a LINEAR footprint that crosses one edge of its face
  // (cube_batch.cpp cubeEdgeSums, sampler_internal.h cubeAdjacentTexel, on every lane): each
  // of the four texels, unwrapped, is named by its centre's direction in half texels,
  // (2i + 1 - n, 2j + 1 - n, n) on the lane's face; "Cube Map Face Selection" of that direction
  // gives the face it lies on and its coordinates there give the texel,
  // clamp((c + n) / 2, 0, n - 1). A texel inside the face maps to itself; a corner (both axes
  // across) is the call's (cornerLanes).
  Footprint edgeFootprint(const Level& l, const Coordinates& c) {
    Footprint f;
    llvm::Value *i0, *j0;
    splitFixed(c, f, i0, j0);
    llvm::Value* n = B.CreateAdd(l.u.mask, splatI(1));  // square faces
    for (int q = 0; q < 4; ++q) {
      llvm::Value* i = (q & 1) ? B.CreateAdd(i0, splatI(1)) : i0;
      llvm::Value* j = (q & 2) ? B.CreateAdd(j0, splatI(1)) : j0;
      llvm::Value *toFace, *ti, *tj;
      adjacentTexel(B.CreateSub(B.CreateAdd(B.CreateShl(i, splatI(1)), splatI(1)), n),
                    B.CreateSub(B.CreateAdd(B.CreateShl(j, splatI(1)), splatI(1)), n), n, toFace, ti, tj);
      f.offset[q] = B.CreateAdd(B.CreateAdd(B.CreateMul(tj, l.pitch), B.CreateShl(ti, splatI(2))), B.CreateMul(toFace, l.layerPitch));
    }
    return f;
  }
  // The face, column and row of the texel whose centre lies at face coordinates (sc, tc) on
  // each lane's face with major axis n (sampler_internal.h cubeAdjacentTexel).
  void adjacentTexel(llvm::Value* sc, llvm::Value* tc, llvm::Value* n, llvm::Value*& toFace, llvm::Value*& ti, llvm::Value*& tj) {
    auto is = [&](int32_t f) { return B.CreateICmpEQ(face, splatI(f)); };
    auto neg = [&](llvm::Value* v) { return B.CreateNeg(v); };
    // The direction (cube_map.cpp faceDirection): +X (n, -t, -s), -X (-n, -t, s), +Y (s, n, t),
    // -Y (s, -n, -t), +Z (s, -t, n), -Z (-s, -t, -n).
    llvm::Value* r0 = B.CreateSelect(is(0), n, B.CreateSelect(is(1), neg(n), B.CreateSelect(is(5), neg(sc), sc)));
    llvm::Value* r1 = B.CreateSelect(is(2), n, B.CreateSelect(is(3), neg(n), neg(tc)));
    llvm::Value* r2 = B.CreateSelect(is(0), neg(sc), B.CreateSelect(is(1), sc, B.CreateSelect(is(2), tc, B.CreateSelect(is(3), neg(tc), B.CreateSelect(is(4), n, neg(n))))));
    // "Cube Map Face Selection" of that direction, in integers.
    toFace = majorAxisFace(r0, r1, r2);
    llvm::Value *s, *u, *unusedRc;
    faceCoordinates(toFace, r0, r1, r2, s, u, unusedRc);
    auto index = [&](llvm::Value* v) {
      llvm::Value* half = B.CreateAShr(B.CreateAdd(v, n), splatI(1));
      return B.CreateBinaryIntrinsic(llvm::Intrinsic::smin, B.CreateBinaryIntrinsic(llvm::Intrinsic::smax, half, splatI(0)),
                                     B.CreateSub(n, splatI(1)));
    };
    ti = index(s);
    tj = index(u);
  }
  // A cube level's LINEAR footprints: `across` the lanes whose footprint crosses an edge of
  // their face (i0 or j0 at -1 or n - 1, the fixed-point coordinates unwrapped), `corner` those
  // crossing two (both axes: the corner texel is the average of three, the call's).
  void edgeLanes(const Level& l, const Coordinates& c, llvm::Value*& across, llvm::Value*& corner) {
    auto crosses = [&](llvm::Value* fixed, const Axis& a) {
      llvm::Value* i0 = B.CreateAShr(fixed, splatI(8));
      return B.CreateOr(B.CreateICmpSLT(i0, splatI(0)), B.CreateICmpSGE(i0, a.mask));
    };
    llvm::Value* acrossI = crosses(c.i, l.u);
    llvm::Value* acrossJ = crosses(c.j, l.v);
    across = B.CreateOr(acrossI, acrossJ);
    corner = B.CreateAnd(acrossI, acrossJ);
  }

  // The level's filtered sums per texel byte, 255 x 2^16 times the value (the routine's
  // filterUniformLevel): NEAREST the byte << 16, LINEAR the bilinear sum.
  void sums(const Level& l, const Footprint& f, bool linear, llvm::Value* out[4]) {
    if (!linear) {
      llvm::Value* texel = texels(l.base, f.offset[0]);
      for (int k = 0; k < 4; ++k) out[k] = B.CreateShl(byteOf(texel, k), splatI(16));
      return;
    }
    llvm::Value* tx[4];
    for (int q = 0; q < 4; ++q) tx[q] = texels(l.base, f.offset[q]);
    // (c00 (256 - α) + c10 α)(256 - β) + (c01 (256 - α) + c11 α) β, exact in int32 (the
    // routine's vpmaddwd rows and its exact float vertical step).
    llvm::Value* ialpha = B.CreateSub(splatI(256), f.alpha);
    llvm::Value* ibeta = B.CreateSub(splatI(256), f.beta);
    for (int k = 0; k < 4; ++k) {
      llvm::Value* row0 = B.CreateAdd(B.CreateMul(byteOf(tx[0], k), ialpha), B.CreateMul(byteOf(tx[1], k), f.alpha));
      llvm::Value* row1 = B.CreateAdd(B.CreateMul(byteOf(tx[2], k), ialpha), B.CreateMul(byteOf(tx[3], k), f.alpha));
      out[k] = B.CreateAdd(B.CreateMul(row0, ibeta), B.CreateMul(row1, f.beta));
    }
  }

  // Per quad (lanes 4q..4q+3 share their derivatives), `v`'s value in lane 4q.
  llvm::Value* perQuad(llvm::Value* v) {
    llvm::SmallVector<int, 8> lanes;
    for (uint32_t q = 0; q < t.width() / 4; ++q) lanes.push_back(int(4 * q));
    return B.CreateShuffleVector(v, lanes);
  }
  // A per-quad value back in each of the quad's lanes.
  llvm::Value* toLanes(llvm::Value* v) {
    llvm::SmallVector<int, 16> lanes;
    for (uint32_t l = 0; l < t.width(); ++l) lanes.push_back(int(l / 4));
    return B.CreateShuffleVector(v, lanes);
  }
  llvm::Value* splatD(llvm::Type* vd, double v) { return llvm::ConstantVector::getSplat(llvm::cast<llvm::VectorType>(vd)->getElementCount(), llvm::ConstantFP::get(B.getDoubleTy(), v)); }

  // batch_lanes.h's vectorLog2, operation for operation, on a vector of doubles.
  llvm::Value* vectorLog2(llvm::Value* x) {
    llvm::Type* vd = x->getType();
    llvm::Type* vi = llvm::VectorType::get(B.getInt64Ty(), llvm::cast<llvm::VectorType>(vd)->getElementCount());
    auto splatI64 = [&](uint64_t v) { return llvm::ConstantVector::getSplat(llvm::cast<llvm::VectorType>(vi)->getElementCount(), B.getInt64(v)); };
    llvm::Value* bits = B.CreateBitCast(x, vi);
    llvm::Value* biased = B.CreateFSub(B.CreateBitCast(B.CreateOr(B.CreateLShr(bits, splatI64(52)), splatI64(0x4330000000000000ull)), vd),
                                       splatD(vd, 0x1p52));
    llvm::Value* m = B.CreateBitCast(B.CreateOr(B.CreateAnd(bits, splatI64(0x000FFFFFFFFFFFFFull)), splatI64(0x3FF0000000000000ull)), vd);
    llvm::Value* high = B.CreateFCmpOGT(m, splatD(vd, 1.4142135623730951));
    m = B.CreateSelect(high, B.CreateFMul(m, splatD(vd, 0.5)), m);
    llvm::Value* e = B.CreateFAdd(B.CreateFSub(biased, splatD(vd, 1023.0)), B.CreateSelect(high, splatD(vd, 1.0), splatD(vd, 0.0)));
    llvm::Value* one = splatD(vd, 1.0);
    llvm::Value* z = B.CreateFDiv(B.CreateFSub(m, one), B.CreateFAdd(m, one));
    llvm::Value* z2 = B.CreateFMul(z, z);
    llvm::Value* z4 = B.CreateFMul(z2, z2);
    llvm::Value* z8 = B.CreateFMul(z4, z4);
    auto pair = [&](double a, double b) { return B.CreateFAdd(splatD(vd, a), B.CreateFMul(splatD(vd, b), z2)); };
    llvm::Value* p01 = pair(1.0, 1.0 / 3);
    llvm::Value* p23 = pair(1.0 / 5, 1.0 / 7);
    llvm::Value* p45 = pair(1.0 / 9, 1.0 / 11);
    llvm::Value* p67 = pair(1.0 / 13, 1.0 / 15);
    llvm::Value* p = B.CreateFAdd(B.CreateFAdd(p01, B.CreateFMul(p23, z4)), B.CreateFMul(B.CreateFAdd(p45, B.CreateFMul(p67, z4)), z8));
    constexpr double kTwoOverLn2 = 2.8853900817779268;
    llvm::Value* log = B.CreateFAdd(e, B.CreateFMul(splatD(vd, kTwoOverLn2), B.CreateFMul(z, p)));
    llvm::Value* passThrough = B.CreateOr(B.CreateFCmpUNO(x, x), B.CreateFCmpOGT(x, splatD(vd, 1.7976931348623157e308)));
    llvm::Value* r = B.CreateSelect(passThrough, x, log);
    return B.CreateSelect(B.CreateFCmpOEQ(x, splatD(vd, 0.0)), splatD(vd, -HUGE_VAL), r);
  }

  // Each lane's ρ_max² in float (batch_sampler_unorm8_uniform.cpp squaredRhoLanes: |d| size,
  // squared, summed, the larger sum), compared with the entry's float bounds: within 2^-22.5
  // in λ of the exact one (inline_sample_state.cpp says why that decides the level).
  // `bounds` (|∂s/∂x|, |∂t/∂x|, |∂s/∂y|, |∂t/∂y| or larger: a cube's derivativeBound) give a
  // bound on it instead: every step is monotonic.
  llvm::Value* squaredRhoLanesF(llvm::Value* const* bounds = nullptr) {
    llvm::Value* baseW = t.splat(field(f32, offsetof(InlineSampleState, baseWidth)));
    llvm::Value* baseH = t.splat(field(f32, offsetof(InlineSampleState, baseHeight)));
    auto magnitude = [&](llvm::Value* d, int k) { return bounds ? bounds[k] : fabsF(d); };
    llvm::Value* mx0 = B.CreateFMul(magnitude(dsdx, 0), baseW);
    llvm::Value* mx1 = B.CreateFMul(magnitude(dtdx, 1), baseH);
    llvm::Value* my0 = B.CreateFMul(magnitude(dsdy, 2), baseW);
    llvm::Value* my1 = B.CreateFMul(magnitude(dtdy, 3), baseH);
    llvm::Value* sumX = B.CreateFAdd(B.CreateFMul(mx0, mx0), B.CreateFMul(mx1, mx1));
    llvm::Value* sumY = B.CreateFAdd(B.CreateFMul(my0, my0), B.CreateFMul(my1, my1));
    return B.CreateSelect(B.CreateFCmpOLT(sumX, sumY), sumY, sumX);
  }

  // ρ_x² and ρ_y² in double, as batch_lanes.h's squaredRho sums them: m = |∂| size (level
  // 0's), mx0² + mx1² + mz² with mz = |0| x 1 = 0; per quad (lane 4q's derivatives: a 2D
  // sample's implicit LOD) or per lane (a cube's face derivatives differ within a quad).
  void squaredRho(bool perQuadLanes, llvm::Value*& sumX, llvm::Value*& sumY) {
    llvm::Type* f64 = B.getDoubleTy();
    const uint32_t n = perQuadLanes ? t.width() / 4 : t.width();
    llvm::Type* vd = llvm::VectorType::get(f64, llvm::ElementCount::getFixed(n));
    auto magnitude = [&](llvm::Value* d, llvm::Value* size) {
      return B.CreateFMul(fabsF(B.CreateFPExt(perQuadLanes ? perQuad(d) : d, vd)), size);
    };
    llvm::Value* w = B.CreateVectorSplat(n, B.CreateFPExt(field(f32, offsetof(InlineSampleState, baseWidth)), f64));
    llvm::Value* h = B.CreateVectorSplat(n, B.CreateFPExt(field(f32, offsetof(InlineSampleState, baseHeight)), f64));
    llvm::Value* mx0 = magnitude(dsdx, w);
    llvm::Value* mx1 = magnitude(dtdx, h);
    llvm::Value* my0 = magnitude(dsdy, w);
    llvm::Value* my1 = magnitude(dtdy, h);
    llvm::Value* zero = splatD(vd, 0.0);
    sumX = B.CreateFAdd(B.CreateFAdd(B.CreateFMul(mx0, mx0), B.CreateFMul(mx1, mx1)), zero);
    sumY = B.CreateFAdd(B.CreateFAdd(B.CreateFMul(my0, my0), B.CreateFMul(my1, my1)), zero);
  }

  // mipmapMode LINEAR: d_hi and δ snapped to 2^-8 (an integer in [0, 256]) from ρ_x² and ρ_y²
  // (per quad or per lane, as the vectors hold them), with selectLaneLevels' operations in its
  // order (λ_base = vectorLog2(ρ_max²) / 2, then levelsFromLambdaBase without shader bias or
  // MinLod).
  void levelsFromSquaredRho(llvm::Value* sumX, llvm::Value* sumY, llvm::Value*& hi, llvm::Value*& delta8) {
    llvm::Type* f64 = B.getDoubleTy();
    llvm::Type* vd = sumX->getType();
    const uint32_t n = uint32_t(llvm::cast<llvm::FixedVectorType>(vd)->getNumElements());
    auto uniformD = [&](size_t offset) {
      return B.CreateVectorSplat(n, field(f64, offset));
    };
    llvm::Value* zero = splatD(vd, 0.0);
    llvm::Value* rho2 = B.CreateSelect(B.CreateFCmpOLT(sumX, sumY), sumY, sumX);
    llvm::Value* lambdaBase = B.CreateFMul(splatD(vd, 0.5), vectorLog2(rho2));
    llvm::Value* lambdaPrime = B.CreateFAdd(lambdaBase, uniformD(offsetof(InlineSampleState, lodBias)));
    llvm::Value* lodMin = uniformD(offsetof(InlineSampleState, lodMin));
    llvm::Value* lodMax = uniformD(offsetof(InlineSampleState, lodMax));
    llvm::Value* q = uniformD(offsetof(InlineSampleState, lodQ));
    // if (λ' > max) max; else if (λ' < min) min; else if (λ' != λ') min; else λ'
    llvm::Value* lambda = B.CreateSelect(B.CreateFCmpUNO(lambdaPrime, lambdaPrime), lodMin, lambdaPrime);
    lambda = B.CreateSelect(B.CreateFCmpOLT(lambdaPrime, lodMin), lodMin, lambda);
    lambda = B.CreateSelect(B.CreateFCmpOGT(lambdaPrime, lodMax), lodMax, lambda);
    llvm::Value* dPrime = B.CreateSelect(B.CreateFCmpOLT(lambda, zero), zero, B.CreateSelect(B.CreateFCmpOLT(q, lambda), q, lambda));
    llvm::Type* vq32 = llvm::VectorType::get(i32, llvm::ElementCount::getFixed(n));
    hi = B.CreateFPToSI(floorF(dPrime), vq32);
    llvm::Value* delta = B.CreateFSub(dPrime, B.CreateUIToFP(hi, vd));
    delta8 = B.CreateFPToSI(floorF(B.CreateFAdd(B.CreateFMul(delta, splatD(vd, 256.0)), splatD(vd, 0.5))), vq32);
  }
  // The same per quad, from the quad's derivatives (the 2D sample's implicit LOD).
  void quadLevels(llvm::Value*& hi, llvm::Value*& delta8) {
    llvm::Value *sumX, *sumY;
    squaredRho(true, sumX, sumY);
    levelsFromSquaredRho(sumX, sumY, hi, delta8);
  }

  // "Cube Map Face Selection and Transformations" as the cube batches take it
  // (sampler_internal.h selectCubeFaceLanes, the reference's selectCubeFace): in double, the
  // same operations in the same order, each lane's face and face coordinates rounded to float,
  // which then stand for the operands (cs, ct). The face derivatives are estimated in float
  // (dsdx ... dtdy, with a bound on their error: derivativeBound), which the magnified test
  // and the prefetches take; the blocks that need them exact compute them (exactDerivatives).
  // Returns the lanes whose direction is finite and non-zero (the others are the reference's).
  struct CubeTerms {
    llvm::Value *sc, *tc, *absRc, *inverse;  // <W x double>
    llvm::Value* sign;                        // <W x float>: -1 on the negative faces
  } cubeTerms{};
  // |∂| + a bound on the estimate's error, per face derivative (dsdx, dtdx, dsdy, dtdy).
  llvm::Value* derivativeBound[4] = {};
  // (s_c, t_c, r_c) of (a, b, c) on face `of` of each lane, float or integer lanes: +X (-z, -y, x),
  // -X (z, -y, x), +Y (x, z, y), -Y (x, -z, y), +Z (x, -y, z), -Z (-x, -y, z).
  void faceCoordinates(llvm::Value* of, llvm::Value* a, llvm::Value* b, llvm::Value* c, llvm::Value*& sc, llvm::Value*& tc,
                       llvm::Value*& rc) {
    auto is = [&](int32_t f) { return B.CreateICmpEQ(of, splatI(f)); };
    auto neg = [&](llvm::Value* v) { return v->getType()->isFPOrFPVectorTy() ? B.CreateFNeg(v) : B.CreateNeg(v); };
    sc = B.CreateSelect(is(0), neg(c), B.CreateSelect(is(1), c, B.CreateSelect(is(5), neg(a), a)));
    tc = B.CreateSelect(is(2), c, B.CreateSelect(is(3), neg(c), neg(b)));
    rc = B.CreateSelect(B.CreateICmpULE(of, splatI(1)), a, B.CreateSelect(B.CreateICmpULE(of, splatI(3)), b, c));
  }
  // "Cube Map Face Selection" of direction (r0, r1, r2), float or integer lanes (cube_map.cpp
  // majorAxisFace): the largest magnitude, z winning ties, then y; the sign picks the positive
  // face for r >= 0. (A float magnitude is a select, as in the reference, not fabs.)
  llvm::Value* majorAxisFace(llvm::Value* r0, llvm::Value* r1, llvm::Value* r2) {
    const bool isFloat = r0->getType()->isFPOrFPVectorTy();
    llvm::Value* zero = isFloat ? splatF(0.0f) : splatI(0);
    auto ge = [&](llvm::Value* a, llvm::Value* b) { return isFloat ? B.CreateFCmpOGE(a, b) : B.CreateICmpSGE(a, b); };
    auto absolute = [&](llvm::Value* r) {
      return isFloat ? B.CreateSelect(B.CreateFCmpOLT(r, zero), B.CreateFNeg(r), r)
                     : B.CreateBinaryIntrinsic(llvm::Intrinsic::abs, r, B.getFalse());
    };
    llvm::Value* ax = absolute(r0);
    llvm::Value* ay = absolute(r1);
    llvm::Value* az = absolute(r2);
    llvm::Value* zMajor = B.CreateAnd(ge(az, ay), ge(az, ax));
    llvm::Value* yMajor = B.CreateAnd(B.CreateNot(zMajor), ge(ay, ax));
    auto pick = [&](llvm::Value* r, int32_t positive) { return B.CreateSelect(ge(r, zero), splatI(positive), splatI(positive + 1)); };
    return B.CreateSelect(zMajor, pick(r2, 4), B.CreateSelect(yMajor, pick(r1, 2), pick(r0, 0)));
  }
  llvm::Value* selectFaces() {
    llvm::Type* vd = t.laneType(B.getDoubleTy());
    auto D = [&](llvm::Value* v) { return B.CreateFPExt(v, vd); };
    auto F = [&](llvm::Value* v) { return B.CreateFPTrunc(v, vf32); };
    // The face and the table's choices and negations are exact in float, where a vector holds
    // twice the lanes (the same comparisons: widening keeps order); only the arithmetic is in
    // double.
    llvm::Value* zero = splatF(0.0f);
    face = majorAxisFace(ops.s, ops.t, ops.r);
    llvm::Value *scF, *tcF, *rcF;
    faceCoordinates(face, ops.s, ops.t, ops.r, scF, tcF, rcF);
    llvm::Value* sc = D(scF);
    llvm::Value* tc = D(tcF);
    llvm::Value* absRc = fabsF(D(rcF));
    llvm::Value* half = splatD(vd, 0.5);
    // One reciprocal and multiplications, as selectCubeFace (six divisions a lane were this
    // kernel's largest cost on tex_cube).
    llvm::Value* inverse = B.CreateFDiv(splatD(vd, 1.0), absRc);
    cs = F(B.CreateFAdd(B.CreateFMul(half, B.CreateFMul(sc, inverse)), half));
    ct = F(B.CreateFAdd(B.CreateFMul(half, B.CreateFMul(tc, inverse)), half));
    // ∂rc times the sign of the major axis (a multiplication by ±1, exact like the rest here).
    llvm::Value* sign = B.CreateSelect(B.CreateICmpNE(B.CreateAnd(face, splatI(1)), splatI(0)), splatF(-1.0f), splatF(1.0f));
    cubeTerms = {sc, tc, absRc, inverse, sign};

    // The estimate: 0.5 (|rc| ∂sc - sc ∂rc) (1 / |rc|)² in float. With A = |rc| ∂sc and
    // B = sc ∂rc as rounded, its error against the exact value rounded to float is below
    // 2^-21 (|A| + |B|) / (2 rc²) (a few roundings of 2^-24 each, the difference's included,
    // and the exact value's own rounding); the bound takes 2^-18 of (|A| + |B| + 2^-100) / rc²,
    // the 2^-100 covering products that underflow (subnormal or flushed, 2^-125 at most). An
    // overflow or a NaN makes the bound infinite or NaN, which no test passes.
    llvm::Value* absRcF = fabsF(rcF);
    llvm::Value* inverseF = B.CreateFDiv(splatF(1.0f), absRcF);
    llvm::Value* inverse2F = B.CreateFMul(inverseF, inverseF);
    llvm::Value *dscx, *dtcx, *drcx, *dscy, *dtcy, *drcy;
    faceCoordinates(face, ops.dsdx, ops.dtdx, ops.drdx, dscx, dtcx, drcx);
    faceCoordinates(face, ops.dsdy, ops.dtdy, ops.drdy, dscy, dtcy, drcy);
    drcx = B.CreateFMul(drcx, sign);
    drcy = B.CreateFMul(drcy, sign);
    auto estimate = [&](llvm::Value* dc, llvm::Value* c, llvm::Value* drc, llvm::Value*& bound) {
      llvm::Value* a = B.CreateFMul(absRcF, dc);
      llvm::Value* b = B.CreateFMul(c, drc);
      llvm::Value* d = B.CreateFMul(B.CreateFMul(splatF(0.5f), B.CreateFSub(a, b)), inverse2F);
      llvm::Value* size = B.CreateFAdd(B.CreateFAdd(fabsF(a), fabsF(b)), splatF(0x1p-100f));
      bound = B.CreateFAdd(fabsF(d), B.CreateFMul(B.CreateFMul(size, splatF(0x1p-18f)), inverse2F));
      return d;
    };
    dsdx = estimate(dscx, scF, drcx, derivativeBound[0]);
    dtdx = estimate(dtcx, tcF, drcx, derivativeBound[1]);
    dsdy = estimate(dscy, scF, drcy, derivativeBound[2]);
    dtdy = estimate(dtcy, tcF, drcy, derivativeBound[3]);
    auto finite = [&](llvm::Value* v) { return B.CreateFCmpOLT(fabsF(v), splatF(HUGE_VALF)); };
    llvm::Value* allZero = B.CreateAnd(B.CreateFCmpOEQ(ops.s, zero), B.CreateAnd(B.CreateFCmpOEQ(ops.t, zero), B.CreateFCmpOEQ(ops.r, zero)));
    return B.CreateAnd(B.CreateAnd(finite(ops.s), B.CreateAnd(finite(ops.t), finite(ops.r))), B.CreateNot(allZero));
  }
  // The face derivatives exactly as selectCubeFaceLanes gives them (in double, rounded to
  // float), computed here, into dsdx ... dtdy, for the code emitted from here on in blocks this
  // one dominates; returns the estimates, which restoreEstimates puts back for the others.
  std::array<llvm::Value*, 4> exactDerivatives() {
    const std::array<llvm::Value*, 4> estimates = {dsdx, dtdx, dsdy, dtdy};
    llvm::Type* vd = t.laneType(B.getDoubleTy());
    auto D = [&](llvm::Value* v) { return B.CreateFPExt(v, vd); };
    llvm::Value *dscx, *dtcx, *drcx, *dscy, *dtcy, *drcy;
    faceCoordinates(face, ops.dsdx, ops.dtdx, ops.drdx, dscx, dtcx, drcx);
    faceCoordinates(face, ops.dsdy, ops.dtdy, ops.drdy, dscy, dtcy, drcy);
    drcx = D(B.CreateFMul(drcx, cubeTerms.sign));
    drcy = D(B.CreateFMul(drcy, cubeTerms.sign));
    // 0.5 (|rc| ∂sc - sc ∂rc) (1 / |rc|)², and likewise t.
    llvm::Value* inverse2 = B.CreateFMul(cubeTerms.inverse, cubeTerms.inverse);
    auto derivative = [&](llvm::Value* dc, llvm::Value* c, llvm::Value* drc) {
      llvm::Value* difference = B.CreateFSub(B.CreateFMul(cubeTerms.absRc, D(dc)), B.CreateFMul(c, drc));
      return B.CreateFPTrunc(B.CreateFMul(B.CreateFMul(splatD(vd, 0.5), difference), inverse2), vf32);
    };
    dsdx = derivative(dscx, cubeTerms.sc, drcx);
    dsdy = derivative(dscy, cubeTerms.sc, drcy);
    dtdx = derivative(dtcx, cubeTerms.tc, drcx);
    dtdy = derivative(dtcy, cubeTerms.tc, drcy);
    return estimates;
  }
  void restoreEstimates(const std::array<llvm::Value*, 4>& estimates) {
    dsdx = estimates[0], dtdx = estimates[1], dsdy = estimates[2], dtdy = estimates[3];
  }

  // An anisotropic sampler's batch is the isotropic routine's where every quad's footprint is
  // isotropic (sampler_lod.cpp anisotropicFootprint: ρ_max² <= kIsotropicSquaredRatio ρ_min²
  // on batch_lanes.h's squaredRho sums in double; a NaN fails, an infinite or zero pair passes,
  // as the footprint takes them as η = 1).
  llvm::Value* quadIsotropic() {
    llvm::Type* vd = llvm::VectorType::get(B.getDoubleTy(), llvm::ElementCount::getFixed(t.width() / 4));
    llvm::Value *sumX, *sumY;
    squaredRho(true, sumX, sumY);
    llvm::Value* xSmaller = B.CreateFCmpOLT(sumX, sumY);
    llvm::Value* most = B.CreateSelect(xSmaller, sumY, sumX);
    llvm::Value* least = B.CreateSelect(xSmaller, sumX, sumY);
    return B.CreateFCmpOLE(most, B.CreateFMul(splatD(vd, abi::kIsotropicSquaredRatio), least));
  }

  // The texels a later batch will read, into the cache: the block walker goes on 4 pixels to
  // the right, so the texels 8 pixels ahead (two blocks) of a few lanes spread over the block's
  // rows, moved by the quad derivatives (the routine's prefetchAhead).
  // nextRow: the row below each prefetched texel too (a LINEAR footprint's second row: the
  // address plus the pitch, without its wrap, which a prefetch, a hint that cannot fault, does
  // not need; the second row's own offsets took some 40 more instructions a batch).
  void prefetchAhead(const Level& l, llvm::Value* i, llvm::Value* j, bool nextRow = false) {
    // Only for a step below one texture width (8 |∂s/∂x| < 1, likewise t; NaN fails), as the
    // routine does: larger ones land in texels no later batch of this block row reads.
    llvm::Value* aheadS = B.CreateFMul(dsdx, splatF(8.0f));
    llvm::Value* aheadT = B.CreateFMul(dtdx, splatF(8.0f));
    llvm::Value* near = B.CreateAnd(B.CreateFCmpOLT(fabsF(aheadS), splatF(1.0f)), B.CreateFCmpOLT(fabsF(aheadT), splatF(1.0f)));
    llvm::Value* zero = splatF(0.0f);
    llvm::Value* stepI = B.CreateFPToSI(B.CreateSelect(near, B.CreateFMul(aheadS, t.splat(l.u.size)), zero), vi32);
    llvm::Value* stepJ = B.CreateFPToSI(B.CreateSelect(near, B.CreateFMul(aheadT, t.splat(l.v.size)), zero), vi32);
    llvm::Value* ai = wrap(B.CreateAdd(i, stepI), l.u);
    llvm::Value* aj = wrap(B.CreateAdd(j, stepJ), l.v);
    llvm::Value* offset = texelOffset(l, B.CreateMul(aj, l.pitch), B.CreateShl(ai, splatI(2)));
    // Four lanes from the block's four pixel rows (W = 16: its corners and two inner pixels;
    // W = 8 and 4: every other lane or every lane).
    const uint32_t W = t.width();
    const uint32_t lanes[4] = {0, W == 16 ? 5u : W / 4, W == 16 ? 10u : W / 2, W - 1};
    for (uint32_t lane : lanes) {
      llvm::Value* at = B.CreateGEP(B.getInt8Ty(), l.base, B.CreateSExt(B.CreateExtractElement(offset, B.getInt32(lane)), B.getInt64Ty()));
      B.CreateIntrinsic(llvm::Intrinsic::prefetch, {ptr}, {at, B.getInt32(0), B.getInt32(3), B.getInt32(1)});
      if (!nextRow) continue;
      llvm::Value* below = B.CreateGEP(B.getInt8Ty(), at, B.CreateZExt(l.pitchScalar, B.getInt64Ty()));
      B.CreateIntrinsic(llvm::Intrinsic::prefetch, {ptr}, {below, B.getInt32(0), B.getInt32(3), B.getInt32(1)});
    }
  }
  llvm::Value* byteOf(llvm::Value* texel, int c) {
    return B.CreateAnd(c ? B.CreateLShr(texel, splatI(8 * c)) : texel, splatI(0xFF));
  }
  // S / d correctly rounded for integer sums S in [0, d] with d = 255 x 2^16 (the routine's
  // unormQuotient: q = S r, e = S - q d exactly, q + e r; checked exhaustively for that d).
  llvm::Value* quotient(llvm::Value* sum, float d) {
    llvm::Value* s = B.CreateUIToFP(sum, vf32);
    llvm::Value* r = splatF(1.0f / d);
    llvm::Value* q = B.CreateFMul(s, r);
    llvm::Value* e = fma(B.CreateFNeg(q), splatF(d), s);
    return fma(e, r, q);
  }

  // The four components in R, G, B, A order (BGRA: bytes 0 and 2 trade places), 0 for inactive
  // lanes, as words.
  std::vector<llvm::Value*> finish(llvm::Value* (&byteValue)[4], llvm::Value* bgra) {
    llvm::Value* red = B.CreateSelect(bgra, byteValue[2], byteValue[0]);
    llvm::Value* blue = B.CreateSelect(bgra, byteValue[0], byteValue[2]);
    llvm::Value* c[4] = {red, byteValue[1], blue, byteValue[3]};
    std::vector<llvm::Value*> out;
    for (llvm::Value* v : c) out.push_back(B.CreateSelect(active, B.CreateBitCast(v, vi32), splatI(0)));
    return out;
  }
};

}  // namespace

std::vector<llvm::Value*> emitInlineSample(Translator& t, const InlineSampleOperands& ops,
                                           const std::function<std::vector<llvm::Value*>()>& call) {
  Emitter e(t, ops);
  llvm::IRBuilder<>& B = e.B;
  // Exact arithmetic: nothing may be contracted or reassociated here.
  llvm::IRBuilderBase::FastMathFlagGuard guard(B);
  B.clearFastMathFlags();

  llvm::BasicBlock* keyBB = e.block("isample.key");
  llvm::BasicBlock* usableBB = e.block("isample.usable");
  llvm::BasicBlock* modeBB = e.block("isample.mode");
  llvm::BasicBlock* rangeBB = e.block("isample.range");
  llvm::BasicBlock* mipBB = e.block("isample.mip");
  llvm::BasicBlock* refreshKeyBB = e.block("isample.refresh.key");
  llvm::BasicBlock* refreshRangeBB = e.block("isample.refresh.range");
  llvm::BasicBlock* refreshMipBB = e.block("isample.refresh.mip");
  llvm::BasicBlock* oneLevelBB = e.block("isample.one");
  llvm::BasicBlock* twoLevelsBB = e.block("isample.two");
  llvm::BasicBlock* callBB = e.block("isample.call");
  llvm::BasicBlock* doneBB = e.block("isample.done");

  // The entry: FragmentBatch::inlineSampling (null: always the call) + slot.
  llvm::Value* slots = B.CreateLoad(e.ptr, B.CreateConstGEP1_64(B.getInt8Ty(), t.workgroupState(), offsetof(abi::FragmentBatch, inlineSampling)));
  e.entry = B.CreateConstGEP1_64(B.getInt8Ty(), slots, uint64_t(ops.slot) * sizeof(InlineSampleState));
  llvm::Value* zero64 = llvm::ConstantInt::get(ops.imageDesc->getType(), 0);
  llvm::Value* present = B.CreateAnd(B.CreateIsNotNull(slots),
                                     B.CreateAnd(B.CreateICmpNE(ops.imageDesc, zero64), B.CreateICmpNE(ops.samplerDesc, zero64)));
  B.CreateCondBr(present, keyBB, callBB);

  // The key: the descriptors' view and sampler.
  B.SetInsertPoint(keyBB);
  // A cube: each lane's face, face coordinates and derivatives first, here where every block
  // that reads them starts (the refresh calls below take the face derivatives of the lane that
  // missed); a batch without entries or descriptors skips them.
  llvm::Value* validDirections = ops.cube ? e.selectFaces() : nullptr;
  llvm::Value* view = B.CreateLoad(e.ptr, B.CreateConstGEP1_64(B.getInt8Ty(), B.CreateIntToPtr(ops.imageDesc, e.ptr), offsetof(abi::ImageDescriptor, view)));
  llvm::Value* sampler =
      B.CreateLoad(e.ptr, B.CreateConstGEP1_64(B.getInt8Ty(), B.CreateIntToPtr(ops.samplerDesc, e.ptr), offsetof(abi::ImageDescriptor, sampler)));
  llvm::Value* hit = B.CreateAnd(B.CreateICmpEQ(view, e.field(e.ptr, offsetof(InlineSampleState, view))),
                                 B.CreateICmpEQ(sampler, e.field(e.ptr, offsetof(InlineSampleState, sampler))));
  B.CreateCondBr(hit, usableBB, refreshKeyBB);

  // The refresh calls take the exact face derivatives of a cube's lane (the entry's levels
  // are those the lane selects).
  B.SetInsertPoint(refreshKeyBB);
  if (ops.cube) {
    const std::array<llvm::Value*, 4> estimates = e.exactDerivatives();
    e.refresh(e.active);
    e.restoreEstimates(estimates);
  } else {
    e.refresh(e.active);
  }
  B.CreateBr(callBB);

  // A pair the kernel does not sample stays on the call until the entry is cleared (a draw);
  // so does a view of the other kind than the instruction's (which valid use never binds).
  B.SetInsertPoint(usableBB);
  const uint32_t usableKind = ops.cube ? abi::kInlineUsableCube : abi::kInlineUsable2D;
  llvm::Value* usable = B.CreateICmpEQ(e.field(e.i32, offsetof(InlineSampleState, usable)), B.getInt32(usableKind));
  if (ops.cube) {
    // A direction that is not finite and non-zero is the reference's (the call's).
    llvm::BasicBlock* directionsBB = e.block("isample.directions");
    B.CreateCondBr(usable, directionsBB, callBB);
    B.SetInsertPoint(directionsBB);
    usable = e.allActive(validDirections);
  }
  B.CreateCondBr(usable, modeBB, callBB);

  B.SetInsertPoint(modeBB);
  llvm::Value* flags = e.field(e.i32, offsetof(InlineSampleState, flags));
  auto flagSet = [&](uint32_t bit) { return B.CreateICmpNE(B.CreateAnd(flags, B.getInt32(bit)), B.getInt32(0)); };
  e.clampU = t.splat(flagSet(abi::kInlineClampU));
  e.clampV = t.splat(flagSet(abi::kInlineClampV));
  llvm::Value* bgra = t.splat(flagSet(abi::kInlineBgra));
  llvm::Value* linearFilter = flagSet(abi::kInlineLinear);
  // An anisotropic sampler: batches with an anisotropic footprint take the call (the entry stays).
  llvm::BasicBlock* isotropicBB = e.block("isample.isotropic");
  llvm::BasicBlock* levelsBB = e.block("isample.levels");
  B.CreateCondBr(flagSet(abi::kInlineIsotropicOnly), isotropicBB, levelsBB);
  B.SetInsertPoint(isotropicBB);
  // (Cube entries never have anisotropic samplers: cubeFaceSampler.)
  if (ops.cube)
    B.CreateBr(callBB);
  else
    B.CreateCondBr(e.allActive(e.toLanes(e.quadIsotropic())), levelsBB, callBB);
  B.SetInsertPoint(levelsBB);
  B.CreateCondBr(flagSet(abi::kInlineMipLinear), mipBB, rangeBB);

  // mipmapMode NEAREST: ρ_max² per lane in float (batch_sampler_unorm8_uniform.cpp
  // squaredRhoLanes: |d| size, squared, summed, the larger sum), inside the level's range for
  // every active lane.
  B.SetInsertPoint(rangeBB);
  std::array<llvm::Value*, 4> estimates{};
  if (ops.cube) estimates = e.exactDerivatives();
  llvm::Value* rho2 = e.squaredRhoLanesF();
  llvm::Value* inRange = B.CreateAnd(B.CreateFCmpOGE(rho2, t.splat(e.field(e.f32, offsetof(InlineSampleState, rho2Lo)))),
                                     B.CreateFCmpOLT(rho2, t.splat(e.field(e.f32, offsetof(InlineSampleState, rho2Hi)))));
  B.CreateCondBr(e.allActive(inRange), oneLevelBB, refreshRangeBB);

  B.SetInsertPoint(refreshRangeBB);
  e.refresh(B.CreateAnd(e.active, B.CreateNot(inRange)));
  B.CreateBr(callBB);
  if (ops.cube) e.restoreEstimates(estimates);

  // mipmapMode LINEAR: a magnified batch (every active lane's ρ_max², in float, below the
  // entry's bound: d_hi = 0 and δ snapped to 0, as for level 0 under mipmapMode NEAREST)
  // samples level 0 at once; otherwise each quad's levels and δ, the same d_hi for every
  // active quad.
  B.SetInsertPoint(mipBB);
  llvm::BasicBlock* mipFullBB = e.block("isample.mip.full");
  llvm::Value* rho2Hi = t.splat(e.field(e.f32, offsetof(InlineSampleState, rho2Hi)));
  llvm::BasicBlock* mipExactBB = nullptr;
  if (ops.cube) {
    // A cube's bound on ρ_max² (from its derivatives' bounds) below the entry's bound: the
    // exact one is too. Otherwise the test again on the exact face derivatives.
    mipExactBB = e.block("isample.mip.exact");
    B.CreateCondBr(e.allActive(B.CreateFCmpOLT(e.squaredRhoLanesF(e.derivativeBound), rho2Hi)), twoLevelsBB, mipExactBB);
    B.SetInsertPoint(mipExactBB);
    estimates = e.exactDerivatives();
  }
  llvm::Value* magnified = B.CreateFCmpOLT(e.squaredRhoLanesF(), rho2Hi);
  B.CreateCondBr(e.allActive(magnified), twoLevelsBB, mipFullBB);
  B.SetInsertPoint(mipFullBB);
  llvm::Value* entryLevel = e.field(e.i32, offsetof(InlineSampleState, level));
  llvm::Value* sameLevel = nullptr;
  llvm::Value* delta8 = nullptr;
  if (ops.cube) {
    // Per lane: a cube's face derivatives differ within a quad.
    llvm::Value *sumX, *sumY, *laneHi;
    e.squaredRho(false, sumX, sumY);
    e.levelsFromSquaredRho(sumX, sumY, laneHi, delta8);
    sameLevel = B.CreateICmpEQ(laneHi, t.splat(entryLevel));
  } else {
    llvm::Value* quadHi = nullptr;
    llvm::Value* quadDelta8 = nullptr;
    e.quadLevels(quadHi, quadDelta8);
    sameLevel = e.toLanes(B.CreateICmpEQ(quadHi, B.CreateVectorSplat(t.width() / 4, entryLevel)));
    delta8 = e.toLanes(quadDelta8);
  }
  llvm::BasicBlock* mipFullEnd = B.GetInsertBlock();
  B.CreateCondBr(e.allActive(sameLevel), twoLevelsBB, refreshMipBB);
  // δ8 of the batch: 0 for a magnified one.
  B.SetInsertPoint(twoLevelsBB);
  llvm::PHINode* batchDelta8 = B.CreatePHI(e.vi32, 3);
  batchDelta8->addIncoming(e.splatI(0), mipBB);
  if (mipExactBB) batchDelta8->addIncoming(e.splatI(0), mipExactBB);
  batchDelta8->addIncoming(delta8, mipFullEnd);
  delta8 = batchDelta8;

  B.SetInsertPoint(refreshMipBB);
  e.refresh(B.CreateAnd(e.active, B.CreateNot(sameLevel)));
  B.CreateBr(callBB);
  // The blocks below (the fetches' prefetches) take the estimates, which every path defines.
  if (ops.cube) e.restoreEstimates(estimates);

  // The sums of `count` levels (level 0, then level 1) after checking that every active lane's
  // coordinates fit and, for a cube's LINEAR footprints, that none covers a cube corner
  // (else the call): a batch whose footprints all lie inside their faces takes the wrapped
  // texels, one with a footprint across a face edge the neighbouring faces' (edgeFootprint).
  auto levelSums = [&](uint32_t count, bool linear, llvm::Value* (&out)[2][4]) {
    Emitter::Level l[2];
    Emitter::Coordinates c[2];
    llvm::Value* fits = nullptr;
    llvm::Value* across = nullptr;
    for (uint32_t k = 0; k < count; ++k) {
      l[k] = e.level(k);
      c[k] = e.coordinates(l[k], linear);
      fits = fits ? B.CreateAnd(fits, c[k].fits) : c[k].fits;
      if (ops.cube && linear) {
        llvm::Value *levelAcross, *corner;
        e.edgeLanes(l[k], c[k], levelAcross, corner);
        fits = B.CreateAnd(fits, B.CreateNot(corner));
        across = across ? B.CreateOr(across, levelAcross) : levelAcross;
      }
    }
    llvm::BasicBlock* fetchBB = e.block("isample.fetch");
    B.CreateCondBr(e.allActive(fits), fetchBB, callBB);
    B.SetInsertPoint(fetchBB);
    Emitter::Footprint f[2];
    for (uint32_t k = 0; k < count; ++k) f[k] = e.wrappedFootprint(l[k], c[k], linear);
    if (across) {
      llvm::BasicBlock* wrappedBB = B.GetInsertBlock();
      llvm::BasicBlock* edgeBB = e.block("isample.edge");
      llvm::BasicBlock* texelsBB = e.block("isample.texels");
      B.CreateCondBr(e.allActive(B.CreateNot(across)), texelsBB, edgeBB);
      B.SetInsertPoint(edgeBB);
      Emitter::Footprint edge[2];
      for (uint32_t k = 0; k < count; ++k) edge[k] = e.edgeFootprint(l[k], c[k]);
      B.CreateBr(texelsBB);
      B.SetInsertPoint(texelsBB);
      for (uint32_t k = 0; k < count; ++k)
        for (int q = 0; q < 4; ++q) {
          llvm::PHINode* phi = B.CreatePHI(e.vi32, 2);
          phi->addIncoming(f[k].offset[q], wrappedBB);
          phi->addIncoming(edge[k].offset[q], edgeBB);
          f[k].offset[q] = phi;
        }
    }
    for (uint32_t k = 0; k < count; ++k) e.sums(l[k], f[k], linear, out[k]);
  };
  // The four variants: filter x one or two levels.
  std::vector<std::pair<std::vector<llvm::Value*>, llvm::BasicBlock*>> results;
  auto variant = [&](bool linear, bool twoLevels) {
    llvm::Value* s[2][4];
    if (twoLevels) {
      // Every active lane's δ8 = 0 (a magnified batch's d' = 0, say): S_hi 256 over
      // 255 x 2^24 is S_hi over 255 x 2^16, and both quotients are correctly rounded (the
      // routine's twoLevelQuotient and unormQuotient), so the one-level result has the same
      // bits without the second level's coordinates or texels.
      llvm::BasicBlock* hiOnlyBB = e.block("isample.hionly");
      llvm::BasicBlock* bothBB = e.block("isample.both");
      B.CreateCondBr(e.allActive(B.CreateICmpEQ(delta8, e.splatI(0))), hiOnlyBB, bothBB);
      B.SetInsertPoint(bothBB);
      levelSums(2, linear, s);
      // S_hi (256 - δ8) + S_lo δ8 < 2^32 over 255 x 2^24, in double, rounded to float (the
      // routine's twoLevelQuotient).
      llvm::Value* inverse = B.CreateSub(e.splatI(256), delta8);
      llvm::Type* vd = t.laneType(B.getDoubleTy());
      llvm::Value* value[4];
      for (int k = 0; k < 4; ++k) {
        llvm::Value* total = B.CreateAdd(B.CreateMul(s[0][k], inverse), B.CreateMul(s[1][k], delta8));
        value[k] = B.CreateFPTrunc(B.CreateFMul(B.CreateUIToFP(total, vd), e.splatD(vd, 1.0 / (255.0 * 16777216.0))), e.vf32);
      }
      results.push_back({e.finish(value, bgra), B.GetInsertBlock()});
      B.CreateBr(doneBB);
      B.SetInsertPoint(hiOnlyBB);
    }
    levelSums(1, linear, s);
    llvm::Value* value[4];
    for (int k = 0; k < 4; ++k) value[k] = e.quotient(s[0][k], 16711680.0f);  // over 255 x 2^16
    results.push_back({e.finish(value, bgra), B.GetInsertBlock()});
    B.CreateBr(doneBB);
  };
  // Per number of levels, the filter.
  for (int two = 0; two < 2; ++two) {
    B.SetInsertPoint(two ? twoLevelsBB : oneLevelBB);
    llvm::BasicBlock* linearBB = e.block("isample.linear");
    llvm::BasicBlock* nearestBB = e.block("isample.nearest");
    B.CreateCondBr(linearFilter, linearBB, nearestBB);
    B.SetInsertPoint(nearestBB);
    variant(false, two);
    B.SetInsertPoint(linearBB);
    variant(true, two);
  }

  // Everything else: the runtime call, as without inline sampling.
  B.SetInsertPoint(callBB);
  results.push_back({call(), nullptr});
  results.back().second = B.GetInsertBlock();
  B.CreateBr(doneBB);

  B.SetInsertPoint(doneBB);
  std::vector<llvm::Value*> result;
  for (size_t c = 0; c < 4; ++c) {
    llvm::PHINode* phi = B.CreatePHI(e.vi32, unsigned(results.size()));
    for (auto& [words, from] : results) phi->addIncoming(words[c], from);
    result.push_back(phi);
  }
  return result;
}

}  // namespace tessera::jit
