#version 450
// A loop whose trip count is PrimitiveIdIn % 5 (geometry_stage_test.cpp): a geometry batch's
// lanes are different primitives, so the loop's condition differs from lane to lane and each
// lane must emit its own count of points.
layout(points) in;
layout(points, max_vertices = 8) out;
layout(location = 0) flat out uint index;
void main() {
  for (int i = 0; i < gl_PrimitiveIDIn % 5; ++i) {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
    index = uint(i);
    EmitVertex();
    EndPrimitive();
  }
}
