#version 450
#extension GL_EXT_geometry_point_size : require
// Passes xfb_doubles.vert's 64-bit outputs through the geometry stage's 64-bit inputs into a
// captured block whose structure member carries no Offsets of its own: id at byte 0, v at the
// next multiple of 8 (byte 8), s at byte 32; and the point size it read from the vertex stage,
// doubled, as its own PointSize at byte 40 (shaderTessellationAndGeometryPointSize); 48-byte records.
layout(triangles) in;  // point sizes are read from a triangle's vertices too
layout(points, max_vertices = 3) out;
layout(location = 0) flat in dvec3 scaled[];
layout(location = 2) flat in double shifted[];
struct Record {
  uint id;
  dvec3 v;
};
layout(location = 0, xfb_buffer = 0, xfb_stride = 48) out Captured {
  layout(xfb_offset = 0) Record r;
  layout(xfb_offset = 32) double s;
} captured;
layout(xfb_buffer = 0) out gl_PerVertex {
  vec4 gl_Position;
  layout(xfb_offset = 40) float gl_PointSize;
};
void main() {
  for (int k = 0; k < 3; ++k) {  // one point per input vertex, in order
    captured.r.id = uint(gl_PrimitiveIDIn * 3 + k);
    captured.r.v = scaled[k];
    captured.s = shifted[k];
    gl_Position = gl_in[k].gl_Position;
    gl_PointSize = gl_in[k].gl_PointSize * 2.0;
    EmitVertex();
    EndPrimitive();
  }
}
