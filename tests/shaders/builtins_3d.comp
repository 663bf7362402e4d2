// Compute built-ins with a 3-D workgroup (3 x 5 x 7 = 105 invocations: batches straddle rows
// and slices) over a 3-D dispatch.
#version 450
layout(local_size_x = 3, local_size_y = 5, local_size_z = 7) in;
layout(set = 0, binding = 0) writeonly buffer Out { uvec4 o[]; };
// Read inside a function too: unoptimized, the built-ins come from the callee's environment.
uint groupIndex() {
  uvec3 n = gl_NumWorkGroups, g = gl_WorkGroupID;
  return g.x + n.x * (g.y + n.y * g.z);
}
void main() {
  uint group = groupIndex();
  uint b = (group * 105u + gl_LocalInvocationIndex) * 4u;
  o[b + 0] = uvec4(gl_LocalInvocationID, gl_LocalInvocationIndex);
  o[b + 1] = uvec4(gl_WorkGroupID, group);
  o[b + 2] = uvec4(gl_GlobalInvocationID, 0u);
  o[b + 3] = uvec4(gl_NumWorkGroups.x * 100u + gl_NumWorkGroups.y * 10u + gl_NumWorkGroups.z, gl_WorkGroupSize);
}
