#version 450
// SAXPY, y = a*x + y, over one chunk of the buffers (a descriptor range of at most
// maxStorageBufferRange bytes). The grid is 2D because 64M elements need more workgroups than
// maxComputeWorkGroupCount[0] guarantees.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform Push {
  float a;
  uint count;
} pc;

void main() {
  uint row = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  uint i = gl_GlobalInvocationID.y * row + gl_GlobalInvocationID.x;
  if (i < pc.count) y[i] = pc.a * x[i] + y[i];
}
