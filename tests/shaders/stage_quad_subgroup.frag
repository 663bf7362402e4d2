#version 450
// Subgroup built-ins and quad operations in a fragment shader ("Quad Group Operations";
// quadOperationsInAllStages is VK_FALSE, which promises them in fragment shaders): manual
// derivatives through quad swaps equal dFdxFine / dFdyFine, and the invocation's index, the
// subgroup's size, a ballot and the equal mask.
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(location = 0) in vec4 inValue;
layout(location = 0) out vec4 outDerivatives;
layout(location = 1) out uvec4 outIds;
void main() {
  float v = inValue.x;
  float dx = subgroupQuadSwapHorizontal(v) - v;
  if ((gl_SubgroupInvocationID & 1u) == 1u) dx = -dx;
  float dy = subgroupQuadSwapVertical(v) - v;
  if ((gl_SubgroupInvocationID & 2u) == 2u) dy = -dy;
  outDerivatives = vec4(dx, dy, dFdxFine(v), dFdyFine(v));
  outIds = uvec4(gl_SubgroupInvocationID, gl_SubgroupSize, subgroupBallot(true).x, gl_SubgroupEqMask.x);
}
