#version 450
// Sampled images in a compute shader (tests/api/sampled_image_test.cpp): explicit-LOD sampling
// through a combined image sampler and through a separate texture + sampler pair, offsets,
// gradients, a gather and a depth comparison, per lane (varying coordinates) and uniform.
layout(local_size_x = 16) in;

layout(set = 0, binding = 0) uniform sampler2D colorTex;        // linear, linear mips, repeat/mirrored
layout(set = 0, binding = 1) uniform texture2D sepTex;          // the same view,
layout(set = 0, binding = 2) uniform sampler sepSampler;        // nearest, nearest mips, border white
layout(set = 0, binding = 3) uniform sampler2DShadow depthTex;  // linear, compare LESS_OR_EQUAL
layout(std430, set = 0, binding = 4) readonly buffer Queries { vec4 queries[]; };  // s, t, lod, dref
layout(std430, set = 0, binding = 5) writeonly buffer Results { vec4 results[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 q = queries[i];
  results[6 * i + 0] = textureLod(colorTex, q.xy, q.z);
  results[6 * i + 1] = textureLodOffset(sampler2D(sepTex, sepSampler), q.xy, q.z, ivec2(1, -1));
  results[6 * i + 2] = textureGather(colorTex, q.xy, 1);
  results[6 * i + 3] = vec4(textureLod(depthTex, vec3(q.xy, q.w), 0.0));
  // dPdx = (g, 0), dPdy = (0, g/2) with g = 2^lod / 8: rho = 8g = 2^lod, so lambda = lod.
  float g = exp2(q.z) / 8.0;
  results[6 * i + 4] = textureGrad(colorTex, q.xy, vec2(g, 0.0), vec2(0.0, 0.5 * g));
  results[6 * i + 5] = textureLod(colorTex, vec2(0.3, 0.6), 1.25);  // uniform operands
}
