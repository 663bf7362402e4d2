#version 450
// Several viewports: the fragment's ViewportIndex (red) and its depth after the viewport's
// depth range (blue).
layout(location = 0) out vec4 color;
void main() { color = vec4(float(gl_ViewportIndex + 1) / 4.0, 0.25, gl_FragCoord.z, 1.0); }
