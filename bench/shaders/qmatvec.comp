#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// y = W x with W quantized to int8 in blocks of 32 weights sharing one float scale, and x
// quantized the same way: the matrix-vector product at the heart of LLM token generation as
// Vulkan back ends run it (llama.cpp's mul_mat_vec over Q8_0). One workgroup per row; each
// invocation walks the row's packed words (4 int8 each) with the workgroup's stride, so
// neighbouring invocations read neighbouring words; integer dot products per word, scaled per
// block; a subgroup reduction, then one partial per subgroup summed through shared memory.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Weights { uint w[]; };        // rows x k/4 words
layout(set = 0, binding = 1) readonly buffer WeightScales { float ws[]; }; // rows x k/32
layout(set = 0, binding = 2) readonly buffer Input { uint x[]; };          // k/4 words
layout(set = 0, binding = 3) readonly buffer InputScales { float xs[]; };  // k/32
layout(set = 0, binding = 4) writeonly buffer Output { float y[]; };       // rows
layout(push_constant) uniform Push {
  uint rows;
  uint k;
} pc;

shared float partial[64];

int dot4(uint a, uint b) {
  ivec4 ia = ivec4(int(a << 24) >> 24, int(a << 16) >> 24, int(a << 8) >> 24, int(a) >> 24);
  ivec4 ib = ivec4(int(b << 24) >> 24, int(b << 16) >> 24, int(b << 8) >> 24, int(b) >> 24);
  return ia.x * ib.x + ia.y * ib.y + ia.z * ib.z + ia.w * ib.w;
}

void main() {
  uint row = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (row >= pc.rows) return;  // uniform per workgroup
  uint words = pc.k / 4u;
  uint rowWords = row * words, rowBlocks = row * (pc.k / 32u);
  float sum = 0.0;
  for (uint i = gl_LocalInvocationID.x; i < words; i += 64u) {
    int d = dot4(w[rowWords + i], x[i]);
    uint block = i / 8u;
    sum += float(d) * (ws[rowBlocks + block] * xs[block]);
  }
  sum = subgroupAdd(sum);
  if (subgroupElect()) partial[gl_SubgroupID] = sum;
  barrier();
  if (gl_LocalInvocationID.x == 0u) {
    float total = 0.0;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) total += partial[s];
    y[row] = total;
  }
}
