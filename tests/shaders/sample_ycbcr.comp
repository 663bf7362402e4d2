#version 450
// Sampler Y'CbCr conversion (tests/api/ycbcr_test.cpp): a view of a multi-planar image sampled
// through its immutable conversion sampler at explicit LOD 0, one query per invocation.
layout(local_size_x = 8) in;

layout(set = 0, binding = 0) uniform sampler2D converted;
layout(std430, set = 0, binding = 1) readonly buffer Queries { vec2 queries[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Results { vec4 results[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  results[i] = textureLod(converted, queries[i], 0.0);
}
