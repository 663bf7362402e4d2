// Storage-buffer atomics under heavy contention: every invocation of every workgroup hits the
// same few addresses. Returned old values are recorded so the test can check they form the
// sequence the operation implies (a permutation for add, exchange and compare-and-swap).
#version 450
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Totals {
  uint add; uint umin; uint umax; uint andBits; uint orBits; uint xorBits; uint xchg; uint cas;
  int smin; int smax; uint compacted; uint hist[16];
} t;
layout(set = 0, binding = 1) writeonly buffer Olds { uvec4 olds[]; };  // add, xchg, cas, compaction slot
layout(set = 0, binding = 2) writeonly buffer Compact { uint kept[]; };
layout(push_constant) uniform P { uint n; };
uint hash(uint x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  uint h = hash(i);
  uint oldAdd = atomicAdd(t.add, 1u);
  atomicMin(t.umin, h | 1u);
  atomicMax(t.umax, h & 0xfffffff0u);
  atomicAnd(t.andBits, ~(1u << (i % 31u)));
  atomicOr(t.orBits, 1u << (i % 29u));
  atomicXor(t.xorBits, h);
  uint oldX = atomicExchange(t.xchg, i + 1u);
  // Compare-and-swap increment loop: lanes of one batch compete with each other too.
  uint got;
  for (;;) {
    uint seen = t.cas;
    got = atomicCompSwap(t.cas, seen, seen + 1u);
    if (got == seen) break;
  }
  atomicMin(t.smin, int(h) >> 3);
  atomicMax(t.smax, int(h) >> 3);
  atomicAdd(t.hist[h % 16u], 1u);  // varying addresses, lanes colliding within a batch
  uint slot = 0xffffffffu;
  if ((h & 3u) == 0u) {            // stream compaction under divergence
    slot = atomicAdd(t.compacted, 1u);
    kept[slot] = i;
  }
  olds[i] = uvec4(oldAdd, oldX, got, slot);
}
