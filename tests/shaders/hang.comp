// The watchdog test (tests/api/watchdog_test.cpp): a loop that never ends while v[0] is not
// 12345 (the test leaves it 0), counting its rounds in v[1].
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
void main() {
  while (v[0] != 12345u) atomicAdd(v[1], 1u);
}
