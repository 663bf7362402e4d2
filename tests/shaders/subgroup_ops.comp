// Subgroup operations over the active lanes, uniform and divergent. Output per invocation:
// 16 uints (see subgroup_test.cpp for the reference of each slot).
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint x = v[i];
  uint base = i * 16;
  o[base + 0] = gl_SubgroupSize;
  o[base + 1] = gl_SubgroupInvocationID;
  o[base + 2] = subgroupAdd(x);
  o[base + 3] = subgroupInclusiveMax(x);
  o[base + 4] = subgroupExclusiveAdd(x);
  o[base + 5] = subgroupBallot(x % 2 == 1).x;
  o[base + 6] = subgroupShuffle(x, (gl_SubgroupInvocationID + 3) % gl_SubgroupSize);
  o[base + 7] = subgroupShuffleXor(x, 1);
  o[base + 8] = subgroupClusteredAdd(x, 4);
  o[base + 9] = subgroupQuadSwapDiagonal(x);
  o[base + 10] = subgroupBroadcastFirst(x);
  o[base + 11] = subgroupAllEqual(x / 1000) ? 1u : 0u;
  if (gl_SubgroupInvocationID % 3 != 0) {
    // Divergent: only lanes with id % 3 != 0 take part.
    o[base + 12] = subgroupAdd(x);
    o[base + 13] = subgroupBallotBitCount(subgroupBallot(true));
    o[base + 14] = subgroupElect() ? 1u : 0u;
    o[base + 15] = subgroupMin(x);
  } else {
    o[base + 12] = 0xdeadu;
    o[base + 13] = subgroupAny(x > 1000000u) ? 1u : 2u;
    o[base + 14] = subgroupAll(x < 1000000u) ? 1u : 0u;
    o[base + 15] = subgroupExclusiveMin(x);
  }
}
