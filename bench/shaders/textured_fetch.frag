#version 450
// One texelFetch of level 0 per fragment at the texel under the fragment's texture coordinate,
// wrapped as REPEAT would (tex_fetch).
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main() {
  const ivec2 size = textureSize(tex, 0);
  const ivec2 texel = ivec2(floor(uv * vec2(size))) & (size - 1);  // size: a power of two
  color = texelFetch(tex, texel, 0);
}
