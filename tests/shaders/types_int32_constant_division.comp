// 32-bit division and remainder by divisors that are constants only after specialization and
// optimization (spec constants, guarded against INT_MIN / -1 before the optimizer runs,
// vector components), and by literal ones: the JIT keeps LLVM's multiply-by-reciprocal code
// for these and divides in double only by run-time divisors (vector_division.h). Results are
// compared with C++ in types_test.cpp.
#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const int kSigned = 31;
layout(constant_id = 1) const uint kUnsigned = 10u;
layout(set = 0, binding = 0) readonly buffer In { int x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { int o[]; };
layout(push_constant) uniform P { uint n; };
const uint K = 8;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  int v = x[i];
  uint u = uint(v);
  uint b = i * K;
  o[b + 0] = v / kSigned;                        // undefined for INT_MIN / -1
  o[b + 1] = v % kSigned;                        // OpSMod
  o[b + 2] = int(u / kUnsigned);
  o[b + 3] = int(u % kUnsigned);
  o[b + 4] = v / -7;
  o[b + 5] = (ivec2(v, v + 1) / ivec2(kSigned, 3)).y;
  o[b + 6] = int(u / 3u);
  o[b + 7] = int(u % 1000u);
}
