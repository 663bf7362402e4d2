// Atomics beyond 32-bit integers: 64-bit integer atomics (buffer and shared), float
// atomicAdd (buffer and shared), atomicLoad/atomicStore with explicit scopes and semantics,
// and a zero-initialized shared array (GL_EXT_null_initializer).
#version 450
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_float : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_null_initializer : require
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Totals { uint64_t sum64; uint64_t max64; float fsum; uint flag; uint64_t cas64; } t;
layout(set = 0, binding = 1) writeonly buffer Out { uint64_t o[]; };
shared uint64_t sSum;
shared float sF;
shared uint zeroed[64] = {};
void main() {
  uint l = gl_LocalInvocationIndex;
  uint i = gl_GlobalInvocationID.x;
  if (l == 0u) { sSum = 0ul; sF = 0.0; }
  barrier();
  uint64_t big = uint64_t(i) << 33;
  atomicAdd(t.sum64, big + 1ul);
  atomicMax(t.max64, big ^ 0x5555ul);
  atomicAdd(t.fsum, 0.5);                 // exact: multiples of 0.5 up to 2^24
  atomicAdd(sSum, uint64_t(l) * 3ul);
  atomicAdd(sF, 0.25);
  uint64_t seen, got;
  do {
    seen = t.cas64;
    got = atomicCompSwap(t.cas64, seen, seen + (1ul << 40));
  } while (got != seen);
  atomicStore(t.flag, 7u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
  uint f = atomicLoad(t.flag, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
  barrier();
  o[2u * i] = uint64_t(zeroed[l % 64u]) + uint64_t(f) * 1000ul;
  o[2u * i + 1u] = l == 0u ? sSum * 10ul + uint64_t(sF) : 0ul;
  // Dirty the array for the next workgroup on this thread: it must see zeros again.
  barrier();
  zeroed[l % 64u] = 0xdeadu;
}
