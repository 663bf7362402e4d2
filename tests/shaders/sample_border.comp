#version 450
// Border colours (tests/api/border_color_test.cpp): one float and one unsigned-integer view,
// each sampled with its own sampler at explicit LOD 0, and a gather of the float view's
// alpha, at the query coordinates (inside, on the edge and outside the image).
layout(local_size_x = 8) in;

layout(set = 0, binding = 0) uniform sampler2D floatTex;
layout(set = 0, binding = 1) uniform usampler2D uintTex;
layout(std430, set = 0, binding = 2) readonly buffer Queries { vec2 queries[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Floats { vec4 floats[]; };  // sample, gather
layout(std430, set = 0, binding = 4) writeonly buffer Uints { uvec4 uints[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec2 q = queries[i];
  floats[2 * i] = textureLod(floatTex, q, 0.0);
  floats[2 * i + 1] = textureGather(floatTex, q, 3);
  uints[i] = textureLod(uintTex, q, 0.0);
}
