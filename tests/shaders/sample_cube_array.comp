#version 450
// Cube array sampling (tests/api/cube_array_test.cpp): textureLod on a samplerCubeArray with a
// direction and a cube index per invocation.
layout(local_size_x = 16) in;

layout(set = 0, binding = 0) uniform samplerCubeArray cubes;
layout(std430, set = 0, binding = 1) readonly buffer Queries { vec4 queries[]; };  // direction, cube
layout(std430, set = 0, binding = 2) writeonly buffer Results { vec4 results[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  results[i] = textureLod(cubes, queries[i], 0.0);
}
