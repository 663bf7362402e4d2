#version 450
// Whole-array and whole-struct assignments under divergent control flow
// (tests/unit/spirv_jit/value_limits_test.cpp): glslang writes them as an OpLoad of the whole
// composite and an OpStore of it, which the translator copies memory to memory
// (Translator::copyStorage); lanes whose condition is false must keep their own values.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data { float v[]; };

struct S {
  float x[130];
  vec4 y;
};

void main() {
  const uint g = gl_GlobalInvocationID.x;
  float a[200], b[200];
  S s, t;
  for (int i = 0; i < 200; ++i) {
    a[i] = v[i] + float(g);
    b[i] = -1.0;
  }
  for (int i = 0; i < 130; ++i) {
    s.x[i] = float(i) * 0.5 + float(g);
    t.x[i] = 7.0;
  }
  s.y = vec4(float(g));
  t.y = vec4(-2.0);
  float c[200] = a;  // every lane: the copy's whole-row path
  if (g % 3u == 1u) b = a;
  if (g % 2u == 0u) t = s;
  const uint base = 1000u + g * 6u;
  v[base] = b[g % 200u];
  v[base + 1u] = b[199];
  v[base + 2u] = t.x[g % 130u];
  v[base + 3u] = t.x[129];
  v[base + 4u] = t.y.w;
  v[base + 5u] = c[(g + 7u) % 200u];
}
