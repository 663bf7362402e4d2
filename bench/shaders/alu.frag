#version 450
// alu_fs_*: 16 FMAs (four vec4 chains) and two transcendentals (sin, exp) per iteration, for
// `iterations` iterations (alu_fs_uniform) or a per-pixel count in [0, 2 * iterations]
// (alu_fs_divergent, neighbouring pixels differ). Each chain contracts (|m| < 1), so rounding
// differences between drivers shrink instead of growing: outputs agree within 1 unit per byte.
// bench/worker/workloads/alu_fs.cpp computes the same on the CPU.
layout(push_constant) uniform Push {
  ivec4 rect;
  uint iterations;
  uint divergent;
} pc;
layout(location = 0) out vec4 outColor;

uint mix32(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

void main() {
  uvec2 pixel = uvec2(gl_FragCoord.xy);
  uint n = pc.iterations;
  if (pc.divergent != 0u) n = mix32(pixel.x | (pixel.y << 16)) % (2u * n + 1u);
  vec2 uv = vec2(pixel) * vec2(1.0 / 2048.0, 1.0 / 1024.0);
  vec4 m = vec4(0.875) - 0.125 * vec4(uv, uv.yx);
  vec4 k = (vec4(1.0) - m) * vec4(0.75, 0.5, 0.25, 0.625);
  vec4 a = vec4(uv, 1.0 - uv), b = a.yzwx, c = a.zwxy, d = a.wxyz;
  for (uint i = 0u; i < n; ++i) {
    a = fma(a, m, k);
    b = fma(b, m, k.yzwx);
    c = fma(c, m, k.zwxy);
    d = fma(d, m, k.wxyz);
    a.x += 0.0625 * sin(3.0 * d.y);
    c.z += 0.0625 * exp(-b.w);
  }
  outColor = clamp(0.25 * (a + b + c + d), 0.0, 1.0);
}
