#version 450
// pipeline_create_graphics_*: one fragment shader specialized with a different value per
// pipeline (different constants, loop count and branch), hashing the pixel's position within
// its 16x16 slot so that nothing folds to a constant. bench/worker/workloads/
// pipeline_create_graphics.cpp computes the same on the CPU.
layout(constant_id = 0) const uint kVariant = 0u;
layout(location = 0) out vec4 outColor;

uint mix32(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

void main() {
  uvec2 local = uvec2(gl_FragCoord.xy) & 15u;
  uint v = mix32((local.x | (local.y << 4)) ^ (kVariant * 0x9e3779b9u));
  for (uint i = 0u; i < 4u + kVariant % 5u; ++i) {
    v = mix32(v + i * 0x632be5abu);
    if ((v & 3u) == (kVariant & 3u))
      v ^= v << 7;
    else
      v += kVariant;
  }
  outColor = unpackUnorm4x8(v | 0xFF000000u);
}
