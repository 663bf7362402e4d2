// cancel_test.cpp: a loop that never ends while v[0] is not 12345 (the test leaves it 0) around
// a loop of 16 rounds, counting the outer rounds in v[1]. The inner loop is short and loses its
// watchdog poll in the optimizer (spirv_jit/cancel_polls.h); the outer one must keep it.
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
void main() {
  while (v[0] != 12345u) {
    uint sum = 0u;
    for (uint k = 0u; k < 16u; ++k) sum += v[2u + k] * k;
    atomicAdd(v[1], 1u + sum);
  }
}
