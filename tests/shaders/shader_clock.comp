// The shader clocks (VK_KHR_shader_clock, tests/api/shader_clock_test.cpp): each invocation reads
// the subgroup clock as a 64-bit integer and the device clock as two words, works for a while
// (a chain of dependent multiplications), and reads both again.
#version 450
#extension GL_ARB_shader_clock : require
#extension GL_EXT_shader_realtime_clock : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint64_t t[]; };  // 5 per invocation
layout(push_constant) uniform P { uint iterations; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint64_t subgroupStart = clockARB();
  uvec2 deviceStart = clockRealtime2x32EXT();
  uint acc = i;
  for (uint k = 0; k < iterations; ++k) acc = acc * 1664525u + 1013904223u;
  uint64_t subgroupEnd = clockARB();
  uvec2 deviceEnd = clockRealtime2x32EXT();
  t[5 * i + 0] = subgroupStart;
  t[5 * i + 1] = subgroupEnd;
  t[5 * i + 2] = packUint2x32(deviceStart);
  t[5 * i + 3] = packUint2x32(deviceEnd);
  t[5 * i + 4] = uint64_t(acc);
}
