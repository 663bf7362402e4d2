// tests/api/robustness2_test.cpp: out-of-range and null-descriptor accesses of every kind, each
// result in one uvec4 of o[] (floats as their bits). See the test for the expected values.
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
layout(set = 0, binding = 1) buffer Ssbo { uint s[]; };              // range: 4 uints
layout(set = 0, binding = 2) uniform Ubo { uvec4 u[4]; };             // range: one uvec4
layout(set = 0, binding = 3) uniform usamplerBuffer tbR32ui;          // 4 texels
layout(set = 0, binding = 4) uniform samplerBuffer tbRG32f;           // 4 texels
layout(set = 0, binding = 5) uniform samplerBuffer tbRGBA8;           // 4 texels
layout(set = 0, binding = 6, r32f) uniform image2D imgR32f;           // 2x2
layout(set = 0, binding = 7, rgba8) uniform image2D imgRGBA8;         // 2x2
layout(set = 0, binding = 8) uniform sampler2D texR8;                 // 2x2, one level
layout(set = 0, binding = 9) buffer NullSsbo { uint n[]; };           // null
layout(set = 0, binding = 10) uniform samplerBuffer nullTexelBuffer;  // null
layout(set = 0, binding = 11, r32f) uniform image2D nullImage;        // null
layout(set = 0, binding = 12) uniform sampler2D nullTexture;          // null view
layout(set = 0, binding = 13) uniform sampler2D texSwizzled;          // RGBA8 2x2, swizzle (B, G, R, ONE)
void main() {
  o[0] = uvec4(s[3], s[4], s[1000], s.length());
  s[4] = 0xBADu;  // out of range: dropped
  o[1] = u[0];
  o[2] = u[1];
  o[3] = texelFetch(tbR32ui, 1);
  o[4] = texelFetch(tbR32ui, 4);
  o[5] = floatBitsToUint(texelFetch(tbRG32f, 4));
  o[6] = floatBitsToUint(texelFetch(tbRGBA8, -1));
  o[7] = floatBitsToUint(imageLoad(imgR32f, ivec2(2, 0)));
  o[8] = floatBitsToUint(imageLoad(imgRGBA8, ivec2(0, 5)));
  imageStore(imgR32f, ivec2(-1, 1), vec4(9.0));  // out of range: dropped
  o[9] = floatBitsToUint(texelFetch(texR8, ivec2(3, 3), 0));
  o[10] = floatBitsToUint(texelFetch(texR8, ivec2(0, 0), 1));  // a level the view lacks
  o[11] = uvec4(n[0], n.length(), atomicAdd(n[1], 5u), 0u);
  n[2] = 0xBADu;
  o[12] = floatBitsToUint(texelFetch(nullTexelBuffer, 0));
  o[13] = uvec4(textureSize(nullTexelBuffer), imageSize(nullImage), textureSize(nullTexture, 0).x);
  o[14] = floatBitsToUint(imageLoad(nullImage, ivec2(0)));
  imageStore(nullImage, ivec2(0), vec4(1.0));
  o[15] = floatBitsToUint(texture(nullTexture, vec2(0.5)));
  o[16] = floatBitsToUint(texelFetch(texSwizzled, ivec2(1, 0), 0));
  o[17] = floatBitsToUint(texelFetch(texSwizzled, ivec2(2, 0), 0));
}
