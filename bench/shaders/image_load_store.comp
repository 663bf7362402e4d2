#version 450
// image_load_store: every invocation reads its texel of an RGBA8 storage image and writes the
// complement to another, dst(p) = 1 - src(p): exact for every byte (1 - c/255 rounds back to
// (255 - c)/255), so every correct driver writes the same bytes.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D dst;

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  imageStore(dst, p, vec4(1.0) - imageLoad(src, p));
}
