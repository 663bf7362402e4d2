#version 450
// Several viewports (tests/api/multi_viewport_test.cpp): invocation i sends the input triangle
// to viewport i through ViewportIndex.
layout(triangles, invocations = 4) in;
layout(triangle_strip, max_vertices = 3) out;
void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position;
    gl_ViewportIndex = gl_InvocationID;
    EmitVertex();
  }
  EndPrimitive();
}
