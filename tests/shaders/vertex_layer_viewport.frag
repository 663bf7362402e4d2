#version 450
// The primitive's tag, Layer and ViewportIndex as the fragment stage reads them back.
layout(location = 0) flat in uint tag;
layout(location = 0) out uvec4 color;
void main() { color = uvec4(tag, uint(gl_Layer), uint(gl_ViewportIndex), 255u); }
