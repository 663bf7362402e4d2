#version 450
// Invocations = 3 ("Geometry Shader Instancing"): each invocation of an input point writes a
// point at pixel (3 * PrimitiveIdIn + InvocationId, 0) with its numbers, and one at the shared
// pixel (PrimitiveIdIn, 1): invocations' primitives are rasterized in increasing invocation
// order, so the last invocation's value stays there.
layout(points, invocations = 3) in;
layout(points, max_vertices = 2) out;
layout(location = 0) flat out uvec4 words;
void point(vec2 pixel, uint kind) {
  gl_Position = vec4((pixel + 0.5) / 16.0 - 1.0, 0.0, 1.0);
  words = uvec4(uint(gl_InvocationID), uint(gl_PrimitiveIDIn), kind, 1u);
  EmitVertex();
  EndPrimitive();
}
void main() {
  point(vec2(float(3 * gl_PrimitiveIDIn + gl_InvocationID), 0.0), 7u);
  point(vec2(float(gl_PrimitiveIDIn), 1.0), 8u);
}
