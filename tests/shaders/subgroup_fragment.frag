// Subgroup operations in a fragment shader (subgroupSupportedStages includes FRAGMENT), on a
// triangle whose slanted edge cuts 2x2 quads (diagonal_triangle.vert), into an
// R32G32B32A32_UINT target (subgroup_fragment_test.cpp):
//   x: subgroupAdd(1), the subgroup's active invocations;
//   y: subgroupBallotBitCount(subgroupBallot(true)), the same count another way;
//   z: gl_SubgroupSize;
//   w: bit 0: subgroupBroadcastFirst of the invocation id is the lowest active id
//      (subgroupBallotFindLSB); bit 1: the invocation id is below the subgroup size and its
//      bit is set in gl_SubgroupEqMask's ballot; bits 2-4 (quad operations): the quad's
//      top-left pixel is quad index 0 of QuadBroadcast, the horizontal and vertical swaps
//      give the neighbouring pixel's coordinates ("Quad Group Operations": 2x2 pixels, index
//      0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right).
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_quad : require
layout(location = 0) out uvec4 result;
void main() {
  const uvec2 pixel = uvec2(gl_FragCoord.xy);
  const uint count = subgroupAdd(1u);
  const uvec4 ballot = subgroupBallot(true);
  uint bits = 0u;
  if (subgroupBroadcastFirst(gl_SubgroupInvocationID) == subgroupBallotFindLSB(ballot)) bits |= 1u;
  if (gl_SubgroupInvocationID < gl_SubgroupSize && subgroupBallotBitExtract(gl_SubgroupEqMask, gl_SubgroupInvocationID))
    bits |= 2u;
  if (subgroupQuadBroadcast(pixel, 0u) == (pixel & ~uvec2(1u))) bits |= 4u;
  if (subgroupQuadSwapHorizontal(pixel) == (pixel ^ uvec2(1u, 0u))) bits |= 8u;
  if (subgroupQuadSwapVertical(pixel) == (pixel ^ uvec2(0u, 1u))) bits |= 16u;
  result = uvec4(count, subgroupBallotBitCount(ballot), gl_SubgroupSize, bits);
}
