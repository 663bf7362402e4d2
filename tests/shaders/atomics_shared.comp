// Workgroup-memory atomics with every invocation of a workgroup (1024 of them, many SIMD
// batches) on the same shared variables; the totals are written out after a barrier.
#version 450
layout(local_size_x = 1024) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };
layout(set = 0, binding = 1) writeonly buffer Olds { uint olds[]; };
shared uint sAdd, sMin, sMax, sAnd, sOr, sXor, sXchg, sCas;
shared int sSmin;
shared uint sHist[8];
void main() {
  uint l = gl_LocalInvocationIndex;
  uint g = gl_WorkGroupID.x;
  if (l == 0u) {
    sAdd = 0u; sMin = 0xffffffffu; sMax = 0u; sAnd = 0xffffffffu; sOr = 0u; sXor = 0u; sXchg = 0u; sCas = 0u;
    sSmin = 0;
  }
  if (l < 8u) sHist[l] = 0u;
  barrier();
  uint v = (l * 2654435761u) ^ (g * 40503u);
  uint oldAdd = atomicAdd(sAdd, l + 1u);
  atomicMin(sMin, v);
  atomicMax(sMax, v);
  atomicAnd(sAnd, ~(1u << (l % 32u)) | (g & 1u));
  atomicOr(sOr, 1u << ((l + g) % 32u));
  atomicXor(sXor, v);
  uint oldX = atomicExchange(sXchg, l + 1u);
  uint got;
  for (;;) {
    uint seen = sCas;
    got = atomicCompSwap(sCas, seen, seen + 1u);
    if (got == seen) break;
  }
  atomicMin(sSmin, -int(v % 1000u));
  atomicAdd(sHist[v % 8u], 1u);
  olds[(g * 1024u + l) * 3u + 0u] = oldAdd;
  olds[(g * 1024u + l) * 3u + 1u] = oldX;
  olds[(g * 1024u + l) * 3u + 2u] = got;
  barrier();
  if (l == 0u) {
    uint b = g * 20u;
    o[b + 0] = sAdd; o[b + 1] = sMin; o[b + 2] = sMax; o[b + 3] = sAnd; o[b + 4] = sOr;
    o[b + 5] = sXor; o[b + 6] = sXchg; o[b + 7] = sCas; o[b + 8] = uint(sSmin);
    for (int k = 0; k < 8; ++k) o[b + 9u + uint(k)] = sHist[k];
  }
}
