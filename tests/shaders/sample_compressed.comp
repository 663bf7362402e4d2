#version 450
// For every texel (x, y) of level 0 of a (block-compressed) sampled image: texelFetch of the
// texel, and a LINEAR sample (explicit LOD 0) at texel coordinates (x + 0.75, y + 0.3), whose
// 2x2 footprint is texels x, x + 1 and y - 1, y with weights alpha = 0.25, beta = 0.8 (the
// sampler clamps to the edge). Results: out.v[2i] and out.v[2i + 1], i = y * width + x.
// (tests/api/bc_texture_test.cpp)
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1, std430) writeonly buffer Out { vec4 v[]; } outp;

void main() {
  ivec2 size = textureSize(tex, 0);
  int i = int(gl_GlobalInvocationID.x);
  if (i >= size.x * size.y) return;
  ivec2 p = ivec2(i % size.x, i / size.x);
  outp.v[2 * i] = texelFetch(tex, p, 0);
  outp.v[2 * i + 1] = textureLod(tex, (vec2(p) + vec2(0.75, 0.3)) / vec2(size), 0.0);
}
