#version 450
// Reads every texel of a 3D depth image (its depth aspect) with texelFetch, and one LINEAR
// sample per (x, y) exactly between the centres of slices 0 and 1
// (tests/api/depth_image_3d_test.cpp).
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(set = 0, binding = 0) uniform sampler3D depthImage;
layout(std430, set = 0, binding = 1) buffer Results { float value[]; };

void main() {
  const ivec3 p = ivec3(gl_GlobalInvocationID);
  const ivec3 size = textureSize(depthImage, 0);
  if (any(greaterThanEqual(p, size))) return;
  const int texel = (p.z * size.y + p.y) * size.x + p.x;
  value[texel] = texelFetch(depthImage, p, 0).r;
  if (p.z == 0) {
    // z = 1 / depth: one texel in, the edge between the centres of slices 0 and 1 (0.5 and 1.5).
    const vec3 at = (vec3(p) + vec3(0.5, 0.5, 0.5)) / vec3(size);
    value[size.x * size.y * size.z + p.y * size.x + p.x] = textureLod(depthImage, vec3(at.xy, 1.0 / size.z), 0.0).r;
  }
}
