// Ballot bit queries on values that are not ballots of the subgroup (subgroup_test.cpp): bits
// of invocations outside the subgroup do not count, and the value may differ per lane.
#version 450
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  o[i * 4 + 0] = subgroupBallotFindMSB(uvec4(0xffffffffu));
  o[i * 4 + 1] = subgroupBallotFindLSB(uvec4(0u, 0u, 1u, 0u) + uvec4(1u << gl_SubgroupInvocationID, 0u, 0u, 0u));
  o[i * 4 + 2] = subgroupBallotBitCount(gl_SubgroupLeMask);
  o[i * 4 + 3] = subgroupBallotExclusiveBitCount(gl_SubgroupEqMask | gl_SubgroupLtMask);
}
