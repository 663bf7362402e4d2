#version 450
// One of many distinct pipelines for the pipeline-creation latency workloads: the
// specialization constant VARIANT changes the code (loop trip count, constants, branches), so
// no two variants can share a compiled kernel. Integer arithmetic only, so every correct
// driver produces the same bits; bench/worker/workloads/pipeline_create.cpp mirrors it on the CPU.
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint VARIANT = 0u;
layout(set = 0, binding = 0) buffer Out { uint v[]; };
layout(push_constant) uniform Push {
  uint slot;
} pc;

shared uint partial[64];

uint mix32(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

void main() {
  uint lane = gl_LocalInvocationID.x;
  uint h = mix32(lane ^ (VARIANT * 0x9e3779b9u));
  for (uint i = 0u; i < 4u + VARIANT % 5u; ++i) {
    h = mix32(h + i * 0x632be5abu);
    if ((h & 3u) == (VARIANT & 3u))
      h ^= h << 7;
    else
      h += VARIANT;
  }
  partial[lane] = h;
  barrier();
  for (uint stride = 32u; stride > 0u; stride >>= 1u) {
    if (lane < stride) partial[lane] += partial[lane + stride];
    barrier();
  }
  v[pc.slot * 64u + lane] += h ^ partial[0];
}
