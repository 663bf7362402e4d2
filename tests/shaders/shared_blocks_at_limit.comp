// Memory limit tests: two Block-decorated shared blocks (GL_EXT_shared_memory_block,
// WorkgroupMemoryExplicitLayoutKHR) of 32 KiB each alias one workgroup memory, so together they
// take 32 KiB, within maxComputeSharedMemorySize. Invocation l writes words through one block
// and reads another invocation's word back through the other, as a pair of halves.
#version 450
#extension GL_EXT_shared_memory_block : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };
layout(std430) shared Words { uint w[8192]; } words;
layout(std430) shared Halves { uvec2 h[4096]; } halves;
void main() {
  uint l = gl_LocalInvocationIndex;
  for (uint k = l; k < 8192u; k += 64u) words.w[k] = k * 3u;
  barrier();
  const uint pair = (l * 131u) % 4096u;
  o[gl_GlobalInvocationID.x] = halves.h[pair].x + halves.h[pair].y;
}
