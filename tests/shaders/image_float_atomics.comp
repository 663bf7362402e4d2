// Float image atomics (VK_EXT_shader_atomic_float, shaderImageFloat32Atomics/AtomicAdd) on an
// R32_SFLOAT storage image and an R32_SFLOAT storage texel buffer (image_compute_test.cpp).
#version 450
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32f) uniform image2D sums;       // 4 x 1 texels
layout(set = 0, binding = 1, r32f) uniform imageBuffer swaps;  // 1 texel
layout(std430, set = 0, binding = 2) writeonly buffer Prev { float prev[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  imageAtomicAdd(sums, ivec2(int(i % 4u), 0), 0.5);
  prev[i] = imageAtomicExchange(swaps, 0, float(i + 1u));
}
