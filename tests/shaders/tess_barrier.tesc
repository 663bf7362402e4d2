#version 450
// Tessellation tests: 32 output vertices (more than one SIMD batch): each invocation writes
// its own per-vertex word, and after the barrier invocation 0 sums every invocation's word
// into the patch word, so the sum is right only if all of them were written before it reads.
layout(vertices = 32) out;
layout(location = 0) in vec4 controlPoint[];
layout(location = 0) out vec4 point[];
layout(location = 2) out uint word[];
layout(location = 1) patch out uint patchWord;
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID % 4].gl_Position;
  point[gl_InvocationID] = controlPoint[gl_InvocationID % 4];
  word[gl_InvocationID] = uint(gl_InvocationID) + 1u;
  barrier();
  if (gl_InvocationID == 0) {
    uint sum = 0u;
    for (int i = 0; i < 32; ++i) sum += word[i];
    patchWord = sum;
    gl_TessLevelOuter[0] = gl_TessLevelOuter[1] = gl_TessLevelOuter[2] = gl_TessLevelOuter[3] = 2.0;
    gl_TessLevelInner[0] = gl_TessLevelInner[1] = 2.0;
  }
}
