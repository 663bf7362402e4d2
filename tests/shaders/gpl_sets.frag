// tests/api/graphics_pipeline_library_sets_test.cpp's fragment shader (the fragment shader
// library): adds a dynamic uniform buffer of set 1 to the interpolated colour; its library's
// layout leaves set 0 NULL.
#version 450
layout(location = 0) in vec4 color;
layout(set = 1, binding = 0) uniform FragmentAdd { vec4 value; } fragmentAdd;
layout(location = 0) out vec4 outColor;
void main() { outColor = color + fragmentAdd.value; }
