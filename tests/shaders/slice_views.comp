// 2D views of 3D image slices in descriptors (VK_EXT_image_2d_view_of_3d,
// tests/api/image_view_extensions_test.cpp): src is a 2D view of one slice of a 3D image
// (sampler2DViewOf3D), read by texel fetch and by NEAREST sampling; dst a 2D view of one slice
// of another 3D image (image2DViewOf3D), read and written: dst = 1000 * dst + 2 * fetch + sample.
#version 450
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform usampler2D src;
layout(set = 0, binding = 1, r32ui) uniform uimage2D dst;
void main() {
  ivec2 p = ivec2(gl_LocalInvocationID.xy);
  uint fetched = texelFetch(src, p, 0).r;
  uint sampled = textureLod(src, (vec2(p) + 0.5) / vec2(textureSize(src, 0)), 0.0).r;
  uint old = imageLoad(dst, p).r;
  imageStore(dst, p, uvec4(1000u * old + 2u * fetched + sampled));
}
