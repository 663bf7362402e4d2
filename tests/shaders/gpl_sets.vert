// tests/api/graphics_pipeline_library_sets_test.cpp's vertex shader (the pre-rasterization
// library): its colour comes from a dynamic uniform buffer in set 0, which the fragment
// library's layout leaves NULL.
#version 450
layout(location = 0) in vec3 inPos;
layout(set = 0, binding = 0) uniform VertexColor { vec4 value; } vertexColor;
layout(location = 0) out vec4 color;
void main() {
  gl_Position = vec4(inPos, 1.0);
  color = vertexColor.value;
}
