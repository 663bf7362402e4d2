// Cube sampling with and without seamless filtering (VK_EXT_non_seamless_cube_map,
// tests/api/image_view_extensions_test.cpp): the same cube view through three samplers, LINEAR
// at level 0 for every direction in dirs.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerCube seamless;
layout(set = 0, binding = 1) uniform samplerCube nonSeamlessRepeat;
layout(set = 0, binding = 2) uniform samplerCube nonSeamlessBorder;
layout(set = 0, binding = 3) readonly buffer Dirs { vec4 dirs[]; };
layout(set = 0, binding = 4) buffer Out { vec4 results[]; };  // 3 per direction
layout(push_constant) uniform P { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  vec3 d = dirs[i].xyz;
  results[3 * i + 0] = textureLod(seamless, d, 0.0);
  results[3 * i + 1] = textureLod(nonSeamlessRepeat, d, 0.0);
  results[3 * i + 2] = textureLod(nonSeamlessBorder, d, 0.0);
}
