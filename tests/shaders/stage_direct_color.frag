// Fragment kernel test (graphics_stage_test.cpp, direct colour writes): locations 0 and 1 are
// whole vec4s of float, which the kernel may encode into 8-bit UNORM attachments itself;
// location 2 (a vec2) and location 3 (a uvec4) never are. Lanes with inFlags.x > 0.5 discard.
#version 450
layout(location = 0) in vec4 inColor;
layout(location = 1) flat in vec4 inFlags;
layout(location = 0) out vec4 outColor;
layout(location = 1) out vec4 outSwizzled;
layout(location = 2) out vec2 outPair;
layout(location = 3) out uvec4 outInts;
void main() {
  if (inFlags.x > 0.5) discard;
  outColor = inColor;
  outSwizzled = inColor.wzyx;
  outPair = inColor.xy;
  outInts = uvec4(7u);
}
