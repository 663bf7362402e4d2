// Float image atomic minimum and maximum (VK_EXT_shader_atomic_float2,
// shaderImageFloat32AtomicMinMax) on an R32_SFLOAT storage image and an R32_SFLOAT storage
// texel buffer (image_compute_test.cpp): texel c of the image gets the minimum of the values
// offered to it, the texel buffer's two texels the maximum and the minimum of all.
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32f) uniform image2D mins;        // 4 x 1 texels
layout(set = 0, binding = 1, r32f) uniform imageBuffer extremes;  // 2 texels: max, min
layout(std430, set = 0, binding = 2) readonly buffer Values { float values[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float v = values[i];
  imageAtomicMin(mins, ivec2(int(i % 4u), 0), v);
  imageAtomicMax(extremes, 0, v);
  imageAtomicMin(extremes, 1, v);
}
