// The demo's picture: the Mandelbrot set with smooth colouring, one invocation per pixel,
// written to a storage image. Divergent loops (each pixel escapes at its own iteration) are
// exactly what the SIMD translator's lane masks are for.
#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D picture;
layout(push_constant) uniform View { vec2 center; float scale; uint maxIterations; };

vec3 palette(float t) {
  return 0.5 + 0.5 * cos(6.2831853 * (vec3(0.0, 0.1, 0.2) + t * vec3(1.0, 0.9, 0.8)));
}

void main() {
  ivec2 size = imageSize(picture);
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= size.x || p.y >= size.y) return;
  vec2 c = center + (vec2(p) - 0.5 * vec2(size)) * scale;
  vec2 z = vec2(0.0);
  uint i = 0;
  for (; i < maxIterations && dot(z, z) < 256.0; ++i) z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
  vec3 color = vec3(0.0);
  if (i < maxIterations) {
    float smoothI = float(i) - log2(log2(dot(z, z))) + 4.0;
    color = palette(smoothI / 64.0);
  }
  imageStore(picture, p, vec4(color, 1.0));
}
