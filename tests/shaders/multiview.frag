// multiview_test.cpp: the colour names the fragment shader's own ViewIndex (red), the
// instance (green) and the vertex shader's ViewIndex (blue), each as (n + 1) / 5.
#version 450
#extension GL_EXT_multiview : require
layout(location = 0) flat in uvec2 viewInstance;
layout(location = 0) out vec4 outColor;
void main() {
  outColor = vec4(float(gl_ViewIndex + 1) * 0.2, float(viewInstance.y + 1) * 0.2, float(viewInstance.x + 1) * 0.2, 1.0);
}
